/** The one error catalogue (contract §2): every code, its HTTP status and default message. */
export const catalogue = {
  INVALID_PAYLOAD: { status: 400, message: 'Invalid payload.' },
  INVALID_QUERY: { status: 400, message: 'Invalid query.' },
  FAILED_VALIDATION: { status: 400, message: 'Validation failed.' },
  INVALID_CREDENTIALS: { status: 401, message: 'Invalid user credentials.' },
  INVALID_OTP: { status: 401, message: 'Invalid user OTP.' },
  TOKEN_EXPIRED: { status: 401, message: 'Token expired.' },
  USER_SUSPENDED: { status: 401, message: 'User suspended.' },
  PROOF_OF_WORK_REQUIRED: { status: 401, message: 'Proof of work required: solve the challenge and send it as `pow`.' },
  INVALID_TOKEN: { status: 403, message: 'Invalid token.' },
  FORBIDDEN: { status: 403, message: "You don't have permission to access this." },
  INVALID_PROVIDER: { status: 403, message: 'Invalid provider.' },
  ROUTE_NOT_FOUND: { status: 404, message: 'Route not found.' },
  NOT_FOUND: { status: 404, message: 'Not found.' },
  NOT_ACCEPTABLE: { status: 406, message: 'The answer cannot be given in the requested media type.' },
  HISTORY_PRUNED: { status: 410, message: 'The history before this time is no longer kept.' },
  PRECONDITION_FAILED: { status: 412, message: 'The item changed since you read it (If-Match does not match its version).' },
  CONTENT_TOO_LARGE: { status: 413, message: 'Request body is too large.' },
  URI_TOO_LONG: { status: 414, message: 'URI too long.' },
  VERSION_HASH_MISMATCH: { status: 422, message: 'The item changed since this version was made (mainHash is not its current hash).' },
  REQUESTS_EXCEEDED: { status: 429, message: 'Too many requests, retry later.' },
  HEADERS_TOO_LARGE: { status: 431, message: 'Request header fields too large.' },
  INTERNAL_SERVER_ERROR: { status: 500, message: 'An unexpected error occurred.' },
  SERVICE_UNAVAILABLE: { status: 503, message: 'Service unavailable.' },
  GRAPHQL_VALIDATION: { status: 400, message: 'GraphQL validation error.' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof catalogue;
