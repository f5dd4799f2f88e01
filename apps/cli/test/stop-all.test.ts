import { stopAll } from '@fabscope/test-support';
import { describe, expect, it } from 'vitest';

describe('stopAll', () => {
  it('stops everything, last started first, though one stop fails, then throws that failure', async () => {
    const stopped: string[] = [];
    const stops = [
      () => stopped.push('emulator'),
      () => {
        throw new Error('exporter would not stop');
      },
      async () => stopped.push('prometheus'),
    ];
    await expect(stopAll(stops)).rejects.toThrow('exporter would not stop');
    expect(stopped).toEqual(['prometheus', 'emulator']);
    expect(stops).toEqual([]);
  });
});
