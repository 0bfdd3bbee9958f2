/**
 * A message body already serialised as JSON (e.g. an outbox row's payload read as text): published as it is, where
 * any other body is serialised first — so a relay hands a row on without parsing it and serialising it again.
 */
export class EncodedJson {
  constructor(readonly text: string) {}
}

/** The JSON text a message body is sent as (`undefined` as `null`). */
export const jsonText = (data: unknown): string => (data instanceof EncodedJson ? data.text : JSON.stringify(data === undefined ? null : data));
