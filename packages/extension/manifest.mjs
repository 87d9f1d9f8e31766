/**
 * The extension's manifest, one source for both browsers. Chromium runs the background as a
 * service worker; Firefox's MV3 runs it as an event page (`background.scripts`) and needs an
 * add-on id. Everything else is the same.
 */
export function manifestFor(browser, version) {
  const common = {
    manifest_version: 3,
    name: 'Lockit',
    version,
    description: 'Fill and copy logins from your self-hosted Lockit vault.',
    action: { default_title: 'Lockit', default_popup: 'popup.html' },
    // storage.session holds the key; scripting + webNavigation fill the exact document seen;
    // idle locks; activeTab is what a click or the shortcut grants.
    permissions: ['storage', 'scripting', 'webNavigation', 'idle', 'activeTab'],
    // Fill may be asked for any site the person opens; nothing runs in a page unless asked.
    host_permissions: ['http://*/*', 'https://*/*'],
    commands: {
      'fill-login': {
        suggested_key: { default: 'Ctrl+Shift+L', mac: 'Command+Shift+L' },
        description: 'Fill the login for this site',
      },
    },
    // Finds login fields and places the inline menu; it holds nothing and asks for nothing.
    content_scripts: [
      { matches: ['http://*/*', 'https://*/*'], js: ['content-script.js'], all_frames: true, run_at: 'document_idle' },
    ],
    // Argon2id is WebAssembly; nothing else beyond the extension's own scripts.
    content_security_policy: { extension_pages: "script-src 'self' 'wasm-unsafe-eval'; object-src 'self'" },
  };
  // The inline menu is framed by pages; Chromium's dynamic URL changes with every session, so
  // a page cannot frame it before the content script did.
  const menu = { resources: ['menu.html', 'menu.js', 'menu.css'], matches: ['http://*/*', 'https://*/*'] };
  if (browser === 'firefox') {
    return {
      ...common,
      web_accessible_resources: [menu],
      background: { scripts: ['service-worker.js'], type: 'module' },
      browser_specific_settings: {
        gecko: {
          id: 'extension@lockit.invalid',
          // 140 (an ESR) is the first that reads data_collection_permissions, which
          // addons.mozilla.org requires of a new add-on.
          strict_min_version: '140.0',
          // Firefox's install consent. What leaves the browser is the person's sign-in and their
          // saved logins (end-to-end encrypted), sent only to the server they connected to.
          data_collection_permissions: { required: ['authenticationInfo'] },
        },
        // Firefox for Android reads data_collection_permissions from 142 on.
        gecko_android: { strict_min_version: '142.0' },
      },
    };
  }
  return {
    ...common,
    web_accessible_resources: [{ ...menu, use_dynamic_url: true }],
    background: { service_worker: 'service-worker.js', type: 'module' },
    minimum_chrome_version: '120',
  };
}
