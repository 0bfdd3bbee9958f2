export * from './body-fields';
export * from './auth-requests';
export * from './users-requests';
export * from './items-requests';
export * from './relations-requests';
export * from './revisions-requests';
export * from './versions-requests';
export * from './request-bodies';
