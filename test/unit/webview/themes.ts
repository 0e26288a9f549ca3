// The colours VS Code's built-in themes give a webview, as --vscode-* variables, for the
// variables panel.css and the workbench's default webview styles use. Taken from the themes
// shipped in the test VS Code (extensions/theme-defaults/themes/*.json) and, where a theme
// sets none, from the workbench's colour registry defaults (descriptionForeground in high
// contrast is the foreground at 70 %).

export interface Theme {
  id: string;
  name: string;
  bodyClass: string;
  vars: Record<string, string>;
}

const FONTS = {
  'font-family': 'system-ui, sans-serif',
  'font-size': '13px',
  'font-weight': 'normal',
  'editor-font-family': 'monospace',
};

export const THEMES: Theme[] = [
  {
    id: 'light-modern', name: 'Light Modern', bodyClass: 'vscode-light',
    vars: {
      ...FONTS, 'foreground': '#3B3B3B', 'editor-background': '#FFFFFF', 'editor-foreground': '#3B3B3B',
      'descriptionForeground': '#3B3B3B', 'button-background': '#005FB8', 'button-foreground': '#FFFFFF',
      'button-border': '#0000001a', 'button-hoverBackground': '#0258A8', 'button-secondaryBackground': '#E5E5E5',
      'button-secondaryForeground': '#3B3B3B', 'button-secondaryHoverBackground': '#CCCCCC', 'focusBorder': '#005FB8',
      'errorForeground': '#F85149', 'inputValidation-errorBackground': '#F2DEDE', 'inputValidation-errorBorder': '#BE1100',
      'panel-border': '#E5E5E5', 'textPreformat-foreground': '#3B3B3B', 'textPreformat-background': '#0000001F',
      'textCodeBlock-background': '#F8F8F8', 'list-hoverBackground': '#F2F2F2',
    },
  },
  {
    id: 'dark-modern', name: 'Dark Modern', bodyClass: 'vscode-dark',
    vars: {
      ...FONTS, 'foreground': '#CCCCCC', 'editor-background': '#1F1F1F', 'editor-foreground': '#CCCCCC',
      'descriptionForeground': '#9D9D9D', 'button-background': '#0078D4', 'button-foreground': '#FFFFFF',
      'button-border': '#ffffff1a', 'button-hoverBackground': '#026EC1', 'button-secondaryBackground': '#00000000',
      'button-secondaryForeground': '#CCCCCC', 'button-secondaryHoverBackground': '#2B2B2B', 'focusBorder': '#0078D4',
      'errorForeground': '#F85149', 'inputValidation-errorBackground': '#5A1D1D', 'inputValidation-errorBorder': '#BE1100',
      'panel-border': '#2B2B2B', 'textPreformat-foreground': '#D0D0D0', 'textPreformat-background': '#3C3C3C',
      'textCodeBlock-background': '#2B2B2B', 'list-hoverBackground': '#2A2D2E',
    },
  },
  {
    id: 'light-2026', name: 'Light 2026', bodyClass: 'vscode-light',
    vars: {
      ...FONTS, 'foreground': '#202020', 'editor-background': '#FFFFFF', 'editor-foreground': '#202020',
      'descriptionForeground': '#606060', 'button-background': '#0069CC', 'button-foreground': '#FFFFFF',
      'button-border': '#0069CC', 'button-hoverBackground': '#0063C1', 'button-secondaryBackground': '#EAEAEA',
      'button-secondaryForeground': '#202020', 'button-secondaryHoverBackground': '#F2F3F4', 'focusBorder': '#0069CC',
      'errorForeground': '#ad0707', 'inputValidation-errorBackground': '#FDEDED', 'inputValidation-errorBorder': '#ad0707',
      'panel-border': '#F0F1F2', 'textPreformat-foreground': '#606060', 'textPreformat-background': '#ECECEC',
      'textCodeBlock-background': '#EAEAEA', 'list-hoverBackground': '#00000014',
    },
  },
  {
    id: 'dark-2026', name: 'Dark 2026', bodyClass: 'vscode-dark',
    vars: {
      ...FONTS, 'foreground': '#bfbfbf', 'editor-background': '#121314', 'editor-foreground': '#BBBEBF',
      'descriptionForeground': '#8C8C8C', 'button-background': '#297AA0', 'button-foreground': '#FFFFFF',
      'button-border': '#297AA0', 'button-hoverBackground': '#2B7DA3', 'button-secondaryBackground': '#00000000',
      'button-secondaryForeground': '#CCCCCC', 'button-secondaryHoverBackground': '#FFFFFF10', 'focusBorder': '#3994BCB3',
      'errorForeground': '#f48771', 'inputValidation-errorBackground': '#3A1D1D', 'inputValidation-errorBorder': '#BE1100',
      'panel-border': '#2A2B2C', 'textPreformat-foreground': '#8C8C8C', 'textPreformat-background': '#262626',
      'textCodeBlock-background': '#242526', 'list-hoverBackground': '#FFFFFF14',
    },
  },
  {
    id: 'high-contrast', name: 'Dark High Contrast', bodyClass: 'vscode-high-contrast',
    vars: {
      ...FONTS, 'foreground': '#FFFFFF', 'editor-background': '#000000', 'editor-foreground': '#FFFFFF',
      'descriptionForeground': '#FFFFFFB3', 'button-background': '#000000', 'button-foreground': '#FFFFFF',
      'button-border': '#6FC3DF', 'button-hoverBackground': '#000000', 'button-secondaryForeground': '#FFFFFF',
      'focusBorder': '#F38518', 'contrastBorder': '#6FC3DF', 'errorForeground': '#F48771',
      'inputValidation-errorBackground': '#000000', 'inputValidation-errorBorder': '#6FC3DF', 'panel-border': '#6FC3DF',
      'textPreformat-foreground': '#FFFFFF', 'textCodeBlock-background': '#000000', 'list-hoverBackground': '#FFFFFF1A',
    },
  },
  {
    id: 'high-contrast-light', name: 'Light High Contrast', bodyClass: 'vscode-high-contrast vscode-high-contrast-light',
    vars: {
      ...FONTS, 'foreground': '#292929', 'editor-background': '#FFFFFF', 'editor-foreground': '#292929',
      'descriptionForeground': '#292929B3', 'button-background': '#0F4A85', 'button-foreground': '#FFFFFF',
      'button-border': '#0F4A85', 'button-hoverBackground': '#0F4A85', 'button-secondaryBackground': '#FFFFFF',
      'button-secondaryForeground': '#292929', 'focusBorder': '#006BBD', 'contrastBorder': '#0F4A85',
      'errorForeground': '#B5200D', 'inputValidation-errorBackground': '#FFFFFF', 'inputValidation-errorBorder': '#0F4A85',
      'panel-border': '#0F4A85', 'textPreformat-foreground': '#FFFFFF', 'textPreformat-background': '#09345f',
      'textCodeBlock-background': '#F2F2F2', 'list-hoverBackground': '#0F4A851A',
    },
  },
];

/**
 * The part of the stylesheet VS Code puts before a webview's own (webview/browser/pre/index.html)
 * that colours what the panels draw: the body and <code>.
 */
export const VSCODE_DEFAULT_STYLES = `@layer vscode-default {
  body { background-color: transparent; color: var(--vscode-editor-foreground); font-family: var(--vscode-font-family);
    font-weight: var(--vscode-font-weight); font-size: var(--vscode-font-size); margin: 0; padding: 0 20px; }
  code { font-family: var(--monaco-monospace-font); color: var(--vscode-textPreformat-foreground);
    background-color: var(--vscode-textPreformat-background); padding: 1px 3px; border-radius: 4px; }
}`;
