import type { ApolloServerPlugin } from '@apollo/server';

/**
 * Every GraphQL answer carries `Cache-Control: no-store`, as Apollo's cache-control plugin gives an answer with no
 * cache hints (this API sets none) — without that plugin, whose per-field hook (`willResolveField`) makes Apollo
 * wrap every resolver (a large share of a list operation's CPU).
 */
export const noStore: ApolloServerPlugin = {
  async requestDidStart() {
    return {
      async willSendResponse({ response }) {
        response.http.headers.set('cache-control', 'no-store');
      },
    };
  },
};
