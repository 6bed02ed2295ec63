export * from './client';
export * from './errors';
export * from './types';
export * from './url';
