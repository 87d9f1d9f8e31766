import { startFirstList } from './first-list';

// The popup's entry is this and first-list alone: the worker is asked for the status and the
// first list as soon as the page runs a script, and answers while React loads and mounts.
startFirstList();
void import('./mount');
