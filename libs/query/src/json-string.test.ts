import { jsonString } from './json-string';

describe('jsonString', () => {
  it('is JSON.stringify for every string', () => {
    const samples = [
      '',
      'articles',
      'c7',
      '12345',
      'é',
      '€ and 😀',
      'a"b',
      'a\\b',
      'line\nend',
      '\u0000',
      '\u001f',
      ' ',
      '\u007f',
      '\u2028\u2029',
      '\ud800',
      'x\udfff',
      '\ud83d\ude00',
      '\ude00\ud83d',
      '</script>',
    ];
    for (const s of samples) expect([s, jsonString(s)]).toEqual([s, JSON.stringify(s)]);
    // every code unit, alone and between letters
    for (let c = 0; c <= 0xffff; c++) {
      const s = `a${String.fromCharCode(c)}b`;
      if (jsonString(s) !== JSON.stringify(s)) expect([c, jsonString(s)]).toEqual([c, JSON.stringify(s)]);
    }
  });
});
