export { createTemplate, DEFAULT_TEMPLATE_SOURCE } from './create-template';
export { getTemplate } from './get-template';
export { listTemplates } from './list-templates';
export * from './schemas';
export { updateTemplate } from './update-template';
