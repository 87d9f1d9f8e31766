import colors from 'tailwindcss/colors';
import { describe, expect, it } from 'vitest';
import { buttonPrimary } from './styles';

/** Tailwind's palette is OKLCH; WCAG's contrast is on sRGB relative luminance. */
function luminanceOf(oklch: string): number {
  const match = /^oklch\(([\d.]+)% ([\d.]+) ([\d.]+)\)$/.exec(oklch);
  if (!match) throw new Error(`Not an oklch() colour: ${oklch}`);
  const [lightness, chroma, hue] = match.slice(1).map(Number) as [number, number, number];
  const L = lightness / 100;
  const a = chroma * Math.cos((hue * Math.PI) / 180);
  const b = chroma * Math.sin((hue * Math.PI) / 180);
  const l = (L + 0.3963377774 * a + 0.2158037573 * b) ** 3;
  const m = (L - 0.1055613458 * a - 0.0638541728 * b) ** 3;
  const s = (L - 0.0894841775 * a - 1.291485548 * b) ** 3;
  // Linear sRGB, clipped to the gamut as a browser paints it.
  const clip = (value: number) => Math.min(1, Math.max(0, value));
  const red = clip(4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s);
  const green = clip(-1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s);
  const blue = clip(-0.0041960863 * l - 0.7034186147 * m + 1.707614701 * s);
  return 0.2126 * red + 0.7152 * green + 0.0722 * blue;
}

const contrastWithWhite = (oklch: string) => 1.05 / (luminanceOf(oklch) + 0.05);

function stop(prefix: 'from' | 'to'): string {
  const match = new RegExp(`(?:^| )${prefix}-([a-z]+)-(\\d+)(?= |$)`).exec(buttonPrimary);
  if (!match) throw new Error(`buttonPrimary has no ${prefix}- stop`);
  const palette = (colors as unknown as Record<string, Record<string, string>>)[match[1]!];
  const colour = palette?.[match[2]!];
  if (!colour) throw new Error(`Unknown colour ${match[1]}-${match[2]}`);
  return colour;
}

describe('buttonPrimary', () => {
  it('keeps white text at WCAG AA (4.5:1) or better on both stops of its gradient', () => {
    expect(buttonPrimary).toContain('text-white');
    for (const colour of [stop('from'), stop('to')]) expect(contrastWithWhite(colour)).toBeGreaterThanOrEqual(4.5);
    // The worst stop, as styles.ts states it.
    expect(Math.min(contrastWithWhite(stop('from')), contrastWithWhite(stop('to'))).toFixed(2)).toBe('5.28');
  });

  it('darkens on hover rather than lightening, so hover never lowers the contrast', () => {
    const brightness = /hover:brightness-(\d+)/.exec(buttonPrimary)?.[1];
    expect(brightness === undefined || Number(brightness) <= 100).toBe(true);
  });
});
