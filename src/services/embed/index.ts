export { prepareEmbedDemo, type EmbedDemo, type EmbedDemoInput } from './embed-demo';
export { demoPage } from './demo-page';
export { checkDemoHost } from './demo-host';
