// Entry of the webview bundle (dist/webview.js). The planning panel lands here; until then the bundle
// only announces itself, so the build pipeline for the browser target is exercised from day one.
export const WEBVIEW_BUNDLE = 'recipe-lens-webview';
