import { cachedQueryParser, extendedQueryParser } from './query-parser';

describe('cachedQueryParser', () => {
  it("parses as express's extended parser, a URL without `?` (null) as the empty query", () => {
    const parse = cachedQueryParser();
    expect(parse('a[b]=1&c=2&c=3')).toEqual(extendedQueryParser('a[b]=1&c=2&c=3'));
    expect(parse('a[b]=1&c=2&c=3')).toEqual({ a: { b: '1' }, c: ['2', '3'] });
    expect(parse(null)).toEqual({});
  });

  it('keeps one frozen value per text; long texts are parsed each time and not kept', () => {
    const inner = jest.fn(extendedQueryParser);
    const parse = cachedQueryParser(inner);
    const first = parse('a[b]=1');
    expect(parse('a[b]=1')).toBe(first);
    expect(Object.isFrozen(first) && Object.isFrozen((first as { a: object }).a)).toBe(true);
    expect(inner).toHaveBeenCalledTimes(1);
    const long = `a=${'x'.repeat(3000)}`;
    expect(parse(long)).not.toBe(parse(long));
    expect(inner).toHaveBeenCalledTimes(3);
  });

  it('holds at most 1,000 texts (dropped whole when full)', () => {
    const inner = jest.fn(extendedQueryParser);
    const parse = cachedQueryParser(inner);
    for (let i = 0; i < 1000; i++) parse(`i=${i}`);
    parse('i=0');
    expect(inner).toHaveBeenCalledTimes(1000);
    parse('i=1000'); // the 1,001st text empties the cache
    parse('i=0');
    expect(inner).toHaveBeenCalledTimes(1002);
  });
});
