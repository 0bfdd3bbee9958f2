import { EventEmitter } from 'node:events';
import { listenForOutbox } from './listen-for-outbox';

/** pg's Client, faked: each instance records its LISTEN; `connectFails` makes the next connect reject. */
const clients: FakeClient[] = [];
let connectFails = false;
class FakeClient extends EventEmitter {
  listened: string[] = [];
  ended = false;
  constructor() {
    super();
    clients.push(this);
  }
  async connect() {
    if (connectFails) throw new Error('refused');
  }
  async query(sql: string) {
    this.listened.push(sql);
  }
  async end() {
    this.ended = true;
  }
}
jest.mock('pg', () => ({ Client: jest.fn(() => new FakeClient()) }));

const log = { info: jest.fn(), warn: jest.fn(), error: jest.fn() };
const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));

describe('listenForOutbox', () => {
  beforeEach(() => {
    clients.length = 0;
    connectFails = false;
  });
  it('LISTENs, wakes once connected and on every notification, reconnects after a lost connection, stops on close', async () => {
    const wake = jest.fn();
    const l = await listenForOutbox({ connectionString: 'x', wake, log, retryMs: 5 });
    expect(clients[0]!.listened).toEqual(['LISTEN vellum_outbox']);
    expect(wake).toHaveBeenCalledTimes(1);
    clients[0]!.emit('notification', {});
    expect(wake).toHaveBeenCalledTimes(2);
    clients[0]!.emit('error', new Error('lost'));
    expect(clients[0]!.ended).toBe(true);
    await tick(30);
    expect(clients).toHaveLength(2);
    expect(wake).toHaveBeenCalledTimes(3);
    await l.close();
    expect(clients[1]!.ended).toBe(true);
    clients[1]!.emit('error', new Error('lost'));
    await tick(30);
    expect(clients).toHaveLength(2); // closed: no reconnect
  });
  it('keeps trying while it cannot connect (the relay polls meanwhile); halt() ends the retries', async () => {
    connectFails = true;
    const wake = jest.fn();
    const l = await listenForOutbox({ connectionString: 'x', wake, log, retryMs: 5 });
    expect(wake).not.toHaveBeenCalled();
    expect(log.warn).toHaveBeenCalledWith(expect.anything(), 'outbox relay: cannot LISTEN, polling');
    // retries every 5 ms; a busy machine may delay the timers, so wait for them (up to 2 s) rather than 40 ms
    for (let i = 0; i < 200 && clients.length <= 2; i++) await tick(10);
    expect(clients.length).toBeGreaterThan(2);
    l.halt();
    await tick(20);
    const n = clients.length;
    await tick(30);
    expect(clients.length).toBe(n);
  });
});
