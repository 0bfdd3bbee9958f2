import { errorCode, firstError } from '../src';

describe('errorCode', () => {
  it('reads the code of the first error', () => {
    const body = { errors: [{ message: 'no', extensions: { code: 'FORBIDDEN' } }, { extensions: { code: 'OTHER' } }] };
    expect(errorCode({ body })).toBe('FORBIDDEN');
    expect(firstError({ body })?.message).toBe('no');
  });

  it('is undefined for a body without errors, an empty list, or no body', () => {
    expect(errorCode({ body: { data: { id: 1 } } })).toBeUndefined();
    expect(errorCode({ body: { errors: [] } })).toBeUndefined();
    expect(errorCode({ body: { errors: [{ message: 'no extensions' }] } })).toBeUndefined();
    expect(errorCode({ body: null })).toBeUndefined();
    expect(errorCode({ body: '' })).toBeUndefined();
    expect(errorCode({})).toBeUndefined();
  });

  it('ignores an errors field that is not a list', () => {
    expect(errorCode({ body: { errors: { extensions: { code: 'X' } } } })).toBeUndefined();
  });
});
