export * from './paths';
export * from './common';
export * from './accounts';
export * from './entries';
export * from './folders';
export * from './entry-documents';
