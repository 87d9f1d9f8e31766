import { afterEach, describe, expect, it, vi } from 'vitest';
import { median, percentile, printTable, verdict } from './report';

describe('median', () => {
  it('takes the middle figure of an odd count, whatever the order', () => {
    expect(median([9, 1, 5])).toBe(5);
  });

  it('takes the mean of the two middle figures of an even count', () => {
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('leaves its input in the order it was measured', () => {
    const samples = [3, 1, 2];
    median(samples);
    expect(samples).toEqual([3, 1, 2]);
  });
});

describe('percentile', () => {
  const samples = [50, 10, 40, 20, 30, 60, 70, 80, 90, 100];

  it('is the nearest rank: no figure is invented between two samples', () => {
    expect(percentile(samples, 50)).toBe(50);
    expect(percentile(samples, 95)).toBe(100);
    expect(percentile(samples, 91)).toBe(100);
    expect(percentile(samples, 90)).toBe(90);
  });

  it('gives the largest sample at p100 and the smallest at a tiny p', () => {
    expect(percentile(samples, 100)).toBe(100);
    expect(percentile(samples, 1)).toBe(10);
  });
});

describe('printTable', () => {
  afterEach(() => vi.restoreAllMocks());

  function printed(header: string[], rows: (string | number)[][]): string[] {
    const lines: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((text: string) => lines.push(...text.split('\n')));
    printTable('Figures', header, rows);
    return lines;
  }

  it('pads text columns on the right and number columns on the left', () => {
    expect(
      printed(
        ['bench', 'ms'],
        [
          ['sign-in', 412],
          ['list', 7],
        ],
      ),
    ).toEqual(['', 'Figures', 'bench     ms', '-------  ---', 'sign-in  412', 'list       7']);
  });

  it('rounds figures to the digits that matter at their size', () => {
    const lines = printed(['figure'], [[1234.56], [12.345], [1.23456], [7]]);
    expect(lines.slice(4).map((line) => line.trim())).toEqual(['1235', '12.3', '1.23', '7']);
  });
});

describe('verdict', () => {
  it('says whether a figure meets its budget, a miss in capitals to stand out', () => {
    expect(verdict(true)).toBe('meets');
    expect(verdict(false)).toBe('MISSES');
  });
});
