import { messageOptions, safeJobId } from './message-options';

describe('message options', () => {
  it('keeps safe job ids as they are and makes others safe for file names, Message-IDs and KV keys', () => {
    expect(safeJobId('3f2b-uuid_1')).toBe('3f2b-uuid_1');
    const odd = safeJobId('../../etc/passwd');
    expect(odd).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(safeJobId('a.b')).not.toBe(safeJobId('a_b')); // no collision with the id it is cleaned into
  });

  it('builds one message with both parts, the job id header and a Message-ID from the job id', () => {
    const o = messageOptions({
      jobId: 'j1',
      template: 'password-reset',
      from: 'f@x.test',
      to: 't@x.test',
      subject: 's',
      html: '<p>h</p>',
      text: 't',
      url: 'https://x.test',
    });
    expect(o).toMatchObject({ from: 'f@x.test', to: 't@x.test', html: '<p>h</p>', text: 't', messageId: '<j1@vellum-mailer>' });
    expect(o.headers).toEqual({ 'X-Vellum-Job-Id': 'j1', 'X-Vellum-Template': 'password-reset' });
  });
});
