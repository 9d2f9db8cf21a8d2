// tus-js-client's js-base64, in the importer's bundle: it only encodes Upload-Metadata values (UTF-8, then
// standard base64 with padding), which TextEncoder and btoa do.
export const Base64 = {
  encode(text: string): string {
    let binary = '';
    for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
    return btoa(binary);
  },
};
