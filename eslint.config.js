import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import boundaries from "./eslint-rules/boundaries.js";
import regexp from "eslint-plugin-regexp";

export default tseslint.config(
  { ignores: ["node_modules", "dist", "var", "server/generated", "test-results", "playwright-report"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // Native regular expressions must not backtrack super-linearly (a crafted input once stalled the server, issue 9).
    plugins: { regexp },
    rules: { "regexp/no-super-linear-backtracking": "error" },
  },
  {
    // Feature and layer boundaries (eslint-rules/boundaries.js); tests and mocks may reach anywhere.
    files: ["server/**/*.ts", "web/**/*.{ts,tsx}"],
    plugins: { boundaries },
    rules: { "boundaries/import-boundaries": "error" },
  },
  {
    files: ["web/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: { "react-hooks/rules-of-hooks": "error", "react-hooks/exhaustive-deps": "warn" },
  },
);
