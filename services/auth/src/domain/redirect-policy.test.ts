import { allowedRedirect } from './redirect-policy';

const PUBLIC = 'https://app.example.com';
const ALLOW = ['https://admin.example.com/after-login', 'https://studio.example.com'];
const check = (r: string) => allowedRedirect(r, PUBLIC, ALLOW);

describe('login redirect policy', () => {
  it.each([
    ['/admin/content', 'https://app.example.com/admin/content'],
    ['https://app.example.com/x?y=1#z', 'https://app.example.com/x?y=1#z'],
    ['https://admin.example.com/after-login?next=1', 'https://admin.example.com/after-login?next=1'],
    ['https://studio.example.com/any/path', 'https://studio.example.com/any/path'],
  ])('allows %s', (r, expected) => expect(check(r)).toBe(expected));

  it.each([
    '//evil.com',
    '//evil.com/admin',
    '/\\evil.com',
    '\\\\evil.com',
    'https://app.example.com@evil.com',
    'https://app.example.com:pw@evil.com/',
    'https://user@app.example.com/',
    'https://evil.com/',
    'https://app.example.com.evil.com/',
    'http://app.example.com/', // other scheme = other origin
    'https://admin.example.com/other-path',
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'https:evil.com',
    'https:/evil.com',
    ' https://app.example.com/',
    '/ok\n.evil',
    '/\t/evil.com',
    '',
    'evil.com',
  ])('refuses %j', (r) => expect(check(r)).toBeUndefined());
});
