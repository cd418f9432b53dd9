/** The targets: what is under test, one folder per kind, behind one seam. */
export { processTarget } from './process/processTarget.ts';
export { urlTarget, checkUrl, type UrlSpec, type UrlTargetOptions } from './url/urlTarget.ts';
