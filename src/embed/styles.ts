/** The shadow root's CSS: every color, radius and size comes from the theme's custom properties. */
export const STYLES = `
:host { display: block; box-sizing: border-box; max-width: 100%; font: 14px/1.45 system-ui, sans-serif;
  color: var(--importd-base-content, #1f2937); background: var(--importd-base, #fff);
  border: var(--importd-border, 1px) solid color-mix(in srgb, var(--importd-base-content, #1f2937) 20%, transparent);
  border-radius: var(--importd-radius-box, 8px); padding: 16px; }
*, *::before, *::after { box-sizing: inherit; }
h2 { font-size: 1.15em; margin: 0 0 12px; }
.drop { display: flex; flex-direction: column; align-items: center; gap: 6px; padding: 24px 12px; text-align: center;
  border: 2px dashed color-mix(in srgb, var(--importd-primary, #4f46e5) 50%, transparent);
  border-radius: var(--importd-radius-box, 8px); cursor: pointer; }
.drop.over { background: color-mix(in srgb, var(--importd-primary, #4f46e5) 10%, transparent); }
.drop input { max-width: 100%; }
button { font: inherit; min-height: var(--importd-size-field, 36px); padding: 6px 14px; cursor: pointer;
  border-radius: var(--importd-radius-field, 6px); border: var(--importd-border, 1px) solid var(--importd-neutral, #6b7280);
  background: var(--importd-base, #fff); color: var(--importd-base-content, #1f2937); }
button.primary { background: var(--importd-primary, #4f46e5); color: var(--importd-primary-content, #fff); border-color: transparent; }
button:disabled { opacity: .5; cursor: not-allowed; }
button:focus-visible, select:focus-visible, input:focus-visible { outline: 3px solid var(--importd-accent, #f59e0b); outline-offset: 2px; }
select, input[type=text] { font: inherit; min-height: var(--importd-size-field, 36px); max-width: 100%; padding: 4px 8px;
  border-radius: var(--importd-radius-selector, 6px); border: var(--importd-border, 1px) solid var(--importd-neutral, #6b7280);
  background: var(--importd-base, #fff); color: var(--importd-base-content, #1f2937); }
.grid { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1.4fr); gap: 8px 12px; align-items: center; margin-bottom: 12px; }
.grid label { overflow-wrap: anywhere; }
.grid select, .grid input { width: 100%; }
.req { color: var(--importd-error, #dc2626); }
.invalid input { border-color: var(--importd-error, #dc2626); }
.problem { grid-column: 2; margin-top: -6px; font-size: .9em; color: var(--importd-error, #dc2626); }
.actions { display: flex; flex-wrap: wrap; gap: 8px; justify-content: flex-end; margin-top: 12px; }
.note { color: var(--importd-neutral, #6b7280); font-size: .92em; overflow-wrap: anywhere; }
.ok { padding: 10px 12px; border-radius: var(--importd-radius-field, 6px); background: var(--importd-success-bg, #dcfce7); color: var(--importd-success-content, #14532d); }
.warn { padding: 10px 12px; border-radius: var(--importd-radius-field, 6px); background: var(--importd-warning-bg, #fef3c7); color: var(--importd-warning-content, #78350f); }
[role=alert]:not(:empty) { margin-top: 12px; padding: 10px 12px; border-radius: var(--importd-radius-field, 6px);
  background: var(--importd-error-bg, #fee2e2); color: var(--importd-error-content, #7f1d1d); overflow-wrap: anywhere; }
.toolbar { display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: center; margin-bottom: 8px; }
.replace { margin-bottom: 8px; } .replace summary { cursor: pointer; margin-bottom: 6px; }
.apply-all:not([hidden]) { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin-bottom: 8px; }
.viewport { position: relative; height: 360px; overflow: auto; contain: strict; border: var(--importd-border, 1px) solid
  color-mix(in srgb, var(--importd-base-content, #1f2937) 20%, transparent); border-radius: var(--importd-radius-field, 6px); }
.sizer { position: relative; min-width: var(--row-width); }
.rows { position: absolute; top: 0; left: 0; right: 0; will-change: transform; }
.row { display: grid; grid-template-columns: var(--columns); min-width: var(--row-width); height: 44px; border-bottom: 1px solid color-mix(in srgb, var(--importd-base-content, #1f2937) 10%, transparent); }
.row.head { position: sticky; top: 0; z-index: 1; height: 32px; font-weight: 600; background: var(--importd-base, #fff); }
.row > span { display: flex; flex-direction: column; justify-content: center; min-width: 0; padding: 0 8px; overflow: hidden; }
.row .number { color: var(--importd-neutral, #6b7280); font-variant-numeric: tabular-nums; }
.row .text, .row .message, .row .becomes { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.row .message { font-size: .85em; color: var(--importd-error, #dc2626); }
.row .becomes { font-size: .85em; color: var(--importd-neutral, #6b7280); }
[role=gridcell] { cursor: text; } [role=gridcell][aria-invalid=true] { box-shadow: inset 0 0 0 2px var(--importd-error, #dc2626); }
.row.skipped { opacity: .55; text-decoration: line-through; }
.editor { width: 100%; min-height: 32px; }
h3 { font-size: 1em; margin: 16px 0 6px; }
.changes { margin-bottom: 12px; padding: 8px 12px; border: var(--importd-border, 1px) solid color-mix(in srgb, var(--importd-base-content, #1f2937) 15%, transparent);
  border-radius: var(--importd-radius-field, 6px); } .changes h3 { margin-top: 0; } .changes p { margin: 4px 0; }
.changes ul { margin: 4px 0 0; padding-left: 18px; } .changes li { overflow-wrap: anywhere; }
.choices { display: flex; flex-wrap: wrap; gap: 8px 16px; margin-bottom: 8px; }
.preview { max-width: 100%; overflow-x: auto; margin-bottom: 12px; border: var(--importd-border, 1px) solid color-mix(in srgb, var(--importd-base-content, #1f2937) 15%, transparent);
  border-radius: var(--importd-radius-field, 6px); }
.preview table { border-collapse: collapse; width: 100%; font-size: .9em; }
.preview td, .preview th { padding: 4px 8px; text-align: left; white-space: nowrap; border-bottom: 1px solid color-mix(in srgb, var(--importd-base-content, #1f2937) 10%, transparent); }
.preview th[scope=row] { color: var(--importd-neutral, #6b7280); font-weight: normal; }
.preview tr[data-header-row] { cursor: pointer; }
.preview tr[data-header-row]:hover, .preview tr[data-header-row]:focus-visible { background: color-mix(in srgb, var(--importd-primary, #4f46e5) 8%, transparent); outline: none; }
.preview tr.header { background: color-mix(in srgb, var(--importd-primary, #4f46e5) 14%, transparent); font-weight: 600; }
.values th[scope=row] { white-space: normal; font-weight: normal; }
.badge { display: inline-block; padding: 0 6px; border-radius: 999px; font-size: .85em; font-weight: 600;
  background: var(--importd-primary, #4f46e5); color: var(--importd-primary-content, #fff); }
.fields { display: grid; gap: 10px; margin-bottom: 12px; }
.field { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1.4fr); gap: 2px 12px; align-items: center; }
.field select { width: 100%; }
.field .notes { grid-column: 2; }
.field .notes p { margin: 2px 0 0; }
.field.flagged select { border-color: var(--importd-error, #dc2626); }
.field .problem { margin: 2px 0 0; }
.extra { border: var(--importd-border, 1px) solid color-mix(in srgb, var(--importd-base-content, #1f2937) 15%, transparent); border-radius: var(--importd-radius-field, 6px); margin: 0 0 12px; }
.check { display: inline-flex; align-items: center; gap: 4px; margin-right: 12px; }
progress { width: 100%; accent-color: var(--importd-primary, #4f46e5); }
@media (max-width: 480px) { :host { padding: 10px; } .grid, .field { grid-template-columns: minmax(0, 1fr); } .problem, .field .notes { grid-column: 1; } }
`;
