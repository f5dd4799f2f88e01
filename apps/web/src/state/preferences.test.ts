import { afterEach, describe, expect, it, vi } from 'vitest';
import { getPreference, setPreference } from './preferences.ts';

describe('display preferences', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('a chosen theme is on <html> as soon as it is chosen (charts made on the change read its colours)', () => {
    const root = {
      dataset: {} as Record<string, string>,
      removeAttribute(name: string) {
        if (name === 'data-theme') delete this.dataset.theme;
      },
    };
    vi.stubGlobal('document', { documentElement: root });
    setPreference('theme', 'light');
    expect(root.dataset.theme).toBe('light');
    expect(getPreference('theme')).toBe('light');
    setPreference('theme', 'system');
    expect(root.dataset.theme).toBeUndefined();
  });

  it('refuses values it does not know and keeps the default', () => {
    vi.stubGlobal('localStorage', {
      getItem: () => 'purple',
      setItem: () => undefined,
    });
    expect(getPreference('theme')).toBe('system');
  });
});
