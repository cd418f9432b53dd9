/** The targets: what is under test, one folder per kind, behind one seam. */
export { stdioEndpoint } from './process/stdioEndpoint.ts';
export { httpEndpoint, checkUrl, type UrlSpec, type HttpEndpointOptions } from './url/httpEndpoint.ts';
