/**
 * KeePass keeps a TOTP seed in entry strings, three ways depending on the program that wrote it:
 *
 * - KeePassXC: `otp`, an otpauth:// URI (older versions: "key=SEED&step=30&size=6", KeeOTP's form);
 * - KeeTrayTOTP and KeePassXC's legacy copy: `TOTP Seed` with `TOTP Settings` ("30;6", or "30;S" for Steam);
 * - KeePass 2.47+: `TimeOtp-Secret-Base32` (or -Secret, -Secret-Hex, -Secret-Base64) with
 *   `TimeOtp-Period`, `TimeOtp-Length`, `TimeOtp-Algorithm`.
 *
 * The first one found becomes the item's TOTP: the bare base32 seed when its settings are the
 * defaults (30 s, 6 digits, SHA-1), else an otpauth:// URI carrying them. The keys it was built
 * from are reported so the caller does not also keep them as custom fields; any other key
 * (a second, different seed) stays a field, so nothing is lost.
 */
export function keepassTotp(
  strings: readonly { key: string; value: string }[],
  label: string,
): { uri: string; usedKeys: Set<string> } {
  const get = (key: string): string => strings.find((string) => string.key === key)?.value.trim() ?? '';
  const none = { uri: '', usedKeys: new Set<string>() };

  const otp = get('otp');
  if (otp !== '') {
    if (/^otpauth:\/\//i.test(otp)) return { uri: otp, usedKeys: new Set(['otp']) };
    const params = new URLSearchParams(otp);
    const key = params.get('key');
    if (key) {
      const uri = totpUri(label, base32(key), {
        period: params.get('step') ?? '30',
        digits: params.get('size') ?? '6',
        algorithm: params.get('otpHashMode') ?? 'SHA1',
      });
      return { uri, usedKeys: new Set(['otp']) };
    }
    // Anything else in `otp` stays a field: Lockit does not guess what it is.
    return none;
  }

  const seed = get('TOTP Seed');
  if (seed !== '') {
    const [period = '30', size = '6'] = get('TOTP Settings').split(';');
    const steam = size.toUpperCase() === 'S';
    const uri = totpUri(label, base32(seed), {
      period,
      digits: steam ? '5' : size,
      algorithm: 'SHA1',
      encoder: steam ? 'steam' : '',
    });
    return { uri, usedKeys: new Set(['TOTP Seed', 'TOTP Settings']) };
  }

  const secretKey = ['TimeOtp-Secret-Base32', 'TimeOtp-Secret', 'TimeOtp-Secret-Hex', 'TimeOtp-Secret-Base64'].find(
    (key) => get(key) !== '',
  );
  if (secretKey !== undefined) {
    const raw = get(secretKey);
    const secret =
      secretKey === 'TimeOtp-Secret-Base32'
        ? base32(raw)
        : secretKey === 'TimeOtp-Secret-Hex'
          ? encodeBase32(hexBytes(raw))
          : secretKey === 'TimeOtp-Secret-Base64'
            ? encodeBase32(base64Bytes(raw))
            : encodeBase32(new TextEncoder().encode(raw));
    if (secret === '') return none;
    const algorithm =
      get('TimeOtp-Algorithm')
        .replace(/^HMAC-/i, '')
        .replace('-', '') || 'SHA1';
    const uri = totpUri(label, secret, {
      period: get('TimeOtp-Period') || '30',
      digits: get('TimeOtp-Length') || '6',
      algorithm,
    });
    return { uri, usedKeys: new Set([secretKey, 'TimeOtp-Period', 'TimeOtp-Length', 'TimeOtp-Algorithm']) };
  }
  return none;
}

function totpUri(
  label: string,
  secret: string,
  settings: { period: string; digits: string; algorithm: string; encoder?: string },
): string {
  const algorithm = settings.algorithm.toUpperCase().replace('-', '');
  const isDefault = settings.period === '30' && settings.digits === '6' && algorithm === 'SHA1' && !settings.encoder;
  if (isDefault) return secret;
  const query = new URLSearchParams({ secret, period: settings.period, digits: settings.digits, algorithm });
  if (settings.encoder) query.set('encoder', settings.encoder);
  return `otpauth://totp/${encodeURIComponent(label.trim() || 'KeePass')}?${query.toString()}`;
}

/** A base32 seed as written by people: spaces and '=' padding dropped, upper case. */
function base32(seed: string): string {
  return seed.replace(/[\s=]/g, '').toUpperCase();
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

function encodeBase32(bytes: Uint8Array): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(buffer << (5 - bits)) & 31];
  return out;
}

function hexBytes(hex: string): Uint8Array {
  const clean = hex.replace(/\s/g, '');
  if (!/^([0-9a-f]{2})*$/i.test(clean)) return new Uint8Array();
  return Uint8Array.from(clean.match(/../g) ?? [], (pair) => parseInt(pair, 16));
}

function base64Bytes(text: string): Uint8Array {
  try {
    return Uint8Array.from(atob(text.replace(/\s/g, '')), (char) => char.charCodeAt(0));
  } catch {
    return new Uint8Array();
  }
}
