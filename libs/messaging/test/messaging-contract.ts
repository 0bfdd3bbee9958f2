import { describeEventStreamContract } from './contract/event-stream-contract';
import { describeKeyValueContract } from './contract/key-value-contract';
import { useMessaging, type MessagingFactory } from './contract/contract-support';
import { describeWorkQueueContract } from './contract/work-queue-contract';

export type { MessagingFactory } from './contract/contract-support';

/** The behaviour every Messaging implementation must have; run against each one. */
export function describeMessagingContract(name: string, factory: MessagingFactory): void {
  describe(`Messaging contract: ${name}`, () => {
    const subject = useMessaging(factory);
    describeWorkQueueContract(subject);
    describeEventStreamContract(subject);
    describeKeyValueContract(subject);

    it('reports health', async () => {
      expect(await subject().m.health()).toEqual({ status: 'ok' });
    });
  });
}
