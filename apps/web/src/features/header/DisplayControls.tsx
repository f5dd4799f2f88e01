import type { RateUnit } from '@fabscope/contracts/units';
import { memo, useEffect } from 'react';
import { Options } from '../../components/Options.tsx';
import { applyTheme, setPreference, type ThemeChoice, usePreference } from '../../state/preferences.ts';

const UNITS: { value: RateUnit; label: string; title: string }[] = [
  { value: 'bytes', label: 'GB/s', title: 'Bytes per second, as opatop prints them' },
  { value: 'bits', label: 'Gb/s', title: 'Bits per second, as link rates and iperf print them' },
];

const THEMES: Record<ThemeChoice, string> = {
  system: 'System theme',
  light: 'Light theme',
  dark: 'Dark theme',
};

/** The viewer's rate unit and colour theme, kept in this browser; the theme is `data-theme` on <html>. */
export const DisplayControls = memo(function DisplayControls() {
  const unit = usePreference('rateUnit');
  const theme = usePreference('theme');
  // The stored choice on first render (setPreference applies later changes itself, before charts redraw).
  useEffect(() => applyTheme(theme), [theme]);
  return (
    <div className="display-controls">
      <fieldset className="segmented" aria-label="Rate unit">
        {UNITS.map((u) => (
          <button
            key={u.value}
            type="button"
            className={`seg ${unit === u.value ? 'seg-on' : ''}`}
            aria-pressed={unit === u.value}
            title={u.title}
            onClick={() => setPreference('rateUnit', u.value)}
          >
            {u.label}
          </button>
        ))}
      </fieldset>
      <label className="theme-select">
        <span className="visually-hidden">Colour theme</span>
        <select value={theme} onChange={(e) => setPreference('theme', e.target.value as ThemeChoice)}>
          <Options values={Object.keys(THEMES) as ThemeChoice[]} label={(t) => THEMES[t]} />
        </select>
      </label>
    </div>
  );
});
