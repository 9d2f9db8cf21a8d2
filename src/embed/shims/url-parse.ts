// tus-js-client's url-parse, in the importer's bundle: it only resolves an upload's Location against the
// endpoint (`new URL(link, origin).toString()`), which every browser's own URL does.
export default URL;
