// ESLint for the site's JavaScript (make lint): the recommended rules, browser globals.
// The keeper's outbox (outbox*.js) is made of ES modules; the other scripts are classic
// scripts, each its own closure, with htmx as a global. tests/js/ runs on Node.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: [".venv/", "staticfiles/", "node_modules/", "media/", "documents/", "backups/"] },
  js.configs.recommended,
  {
    files: ["tournament/static/**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "script",
      globals: { ...globals.browser, htmx: "readonly" },
    },
  },
  {
    files: ["tournament/static/**/outbox*.js"],
    languageOptions: { sourceType: "module" },
  },
  {
    files: ["tests/js/**/*.js", "eslint.config.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.node },
  },
];
