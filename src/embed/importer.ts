// GET /embed/importer.js: defines <importd-importer> (element.ts). Loading the script twice is harmless.
import { ImporterElement } from './element';

if (!customElements.get('importd-importer')) customElements.define('importd-importer', ImporterElement);
