import { gunzipSync } from 'node:zlib';
import { acceptedEncoding, answerEncoding, compress, COMPRESS_MIN_BYTES } from './compress-body';

describe('acceptedEncoding', () => {
  it.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip;q=0.5', 'gzip'],
    ['*', 'br'],
    ['*;q=0, gzip', 'gzip'],
    ['identity', undefined],
    ['deflate', undefined],
    ['', undefined],
    [undefined, undefined],
  ])('%s → %s', (header, expected) => {
    expect(acceptedEncoding(header)).toBe(expected);
  });
});

describe('answerEncoding', () => {
  it('leaves answers under COMPRESS_MIN_BYTES as they are, and says nothing varies', () => {
    const vary = jest.fn();
    expect(answerEncoding('br', COMPRESS_MIN_BYTES - 1, vary)).toBeUndefined();
    expect(vary).not.toHaveBeenCalled();
  });

  it('from that size on: varies with Accept-Encoding, whether or not the client accepts one', () => {
    const vary = jest.fn();
    expect(answerEncoding('gzip', COMPRESS_MIN_BYTES, vary)).toBe('gzip');
    expect(answerEncoding(undefined, COMPRESS_MIN_BYTES, vary)).toBeUndefined();
    expect(vary).toHaveBeenCalledTimes(2);
  });

  it('compresses to what decodes back to the text', () => {
    const text = JSON.stringify({ data: Array.from({ length: 50 }, (_, i) => ({ id: i, note: 'the same words again' })) });
    expect(gunzipSync(compress(text, 'gzip')).toString()).toBe(text);
  });
});
