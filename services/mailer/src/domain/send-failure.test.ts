import { classifySendFailure } from './send-failure';

describe('classifySendFailure', () => {
  it.each([
    [{ code: 'EENVELOPE', responseCode: 550, response: '550 recipient rejected', command: 'RCPT TO' }, 'permanent'],
    [{ code: 'EMESSAGE', responseCode: 554, response: '554 message refused', command: 'DATA' }, 'permanent'],
    [{ code: 'EENVELOPE', responseCode: 451, response: '451 try later', command: 'RCPT TO' }, 'temporary'],
    [{ code: 'EENVELOPE', responseCode: 421, response: '421 shutting down' }, 'temporary'],
    [{ code: 'EPROTOCOL', responseCode: 503, response: '503 bad sequence' }, 'temporary'],
    [{ code: 'EAUTH', responseCode: 535, response: '535 auth failed', command: 'AUTH PLAIN' }, 'temporary'],
    [{ code: 'ECONNECTION', message: 'connect ECONNREFUSED 127.0.0.1:25' }, 'temporary'],
    [{ code: 'ETIMEDOUT', message: 'Greeting never received' }, 'temporary'],
    [{ code: 'EABORT', message: 'Message sending aborted' }, 'temporary'],
    [{ code: 'EENVELOPE', message: 'No recipients defined' }, 'permanent'],
    [new Error('something odd'), 'temporary'],
    [undefined, 'temporary'],
  ])('%o → %s', (err, kind) => {
    const f = classifySendFailure(err);
    expect(f.kind).toBe(kind);
    expect(f.reason.length).toBeGreaterThan(0);
  });

  it('keeps the reply code and text in the reason', () => {
    expect(classifySendFailure({ code: 'EENVELOPE', responseCode: 550, response: '550 5.1.1 <x@y>: no such user' }).reason).toBe(
      'EENVELOPE 550 550 5.1.1 <x@y>: no such user',
    );
  });
});
