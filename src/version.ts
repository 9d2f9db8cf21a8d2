import { version } from '../package.json';

/**
 * The one version of importd: package.json's, printed by `importd --version` and `importd version` and
 * published as the OpenAPI document's `info.version`, so a client generated from the document names the
 * release that served it. The API's compatibility promise is the `/v1` path prefix, not this number.
 */
export const VERSION: string = version;
