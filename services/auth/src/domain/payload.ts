import { UUID } from '@vellum/contracts';

// Request bodies are validated with the contract's schemas (@vellum/contracts, `route(…, { body })`).

export const isUuid = (v: string) => UUID.test(v);
