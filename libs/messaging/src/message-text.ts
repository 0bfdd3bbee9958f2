import { RawJson } from '@vellum/contracts';

/** The JSON text a message body is sent as: a RawJson's text as it is (a relay's row, unparsed), `undefined` as `null`. */
export const messageText = (data: unknown): string => (data instanceof RawJson ? data.text : JSON.stringify(data === undefined ? null : data));
