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

  it('refuses values it does not know and keeps the default', async () => {
    vi.stubGlobal('localStorage', {
      getItem: () => 'purple',
      setItem: () => undefined,
    });
    // A page that chose nothing yet: a module of its own.
    vi.resetModules();
    const fresh = await import('./preferences.ts');
    expect(fresh.getPreference('theme')).toBe('system');
  });

  it('reads the browser’s storage once, not on every render; a choice made is read back at once', async () => {
    const getItem = vi.fn((key: string) => (key === 'fabscope.rateUnit' ? 'bits' : null));
    vi.stubGlobal('localStorage', { getItem, setItem: () => undefined });
    vi.resetModules();
    const fresh = await import('./preferences.ts');
    for (let i = 0; i < 5; i++) expect(fresh.getPreference('rateUnit')).toBe('bits');
    expect(getItem).toHaveBeenCalledTimes(1);
    fresh.setPreference('rateUnit', 'bytes');
    expect(fresh.getPreference('rateUnit')).toBe('bytes');
    expect(getItem).toHaveBeenCalledTimes(1);
  });
});
