import type { BrandSettings } from '../config.ts';
import { hashedAsset, type Asset } from './assets.ts';
import { ENHANCE_SCRIPT, ENHANCE_SCRIPT_PATH } from './enhance-script.ts';
import { stylesheet } from './stylesheet.ts';
import { ADMIN_SCRIPT, ADMIN_SCRIPT_PATH } from './admin/admin-script.ts';

/** What a page's head and header link to, `{base}` included. */
export interface PageAssets {
  stylesheet: string;
  script: string;
  /** The back office's enhancement script (100 §12), `{base}/assets/admin.js?v={hash}`. */
  adminScript: string;
  /** The operator's stylesheet, linked after ours so its rules win. */
  customCss?: string;
  logo?: { src: string; width: number; height: number };
}

/**
 * Every file the pages load, built once at start from the brand settings: the files to serve
 * (paths under `{base}`) and the links pages write. Hashed names let browsers keep them for good.
 */
export function pageAssets(basePath: string, brand: BrandSettings): { files: Asset[]; links: PageAssets } {
  const css = stylesheet(brand.accentColor);
  const script: Asset = { path: ENHANCE_SCRIPT_PATH, type: 'text/javascript; charset=utf-8', body: ENHANCE_SCRIPT };
  const adminScript: Asset = { path: ADMIN_SCRIPT_PATH, type: 'text/javascript; charset=utf-8', body: ADMIN_SCRIPT };
  const custom = brand.customCss === null ? undefined : hashedAsset('custom', 'css', 'text/css; charset=utf-8', brand.customCss);
  const logo = brand.logo === null ? undefined : hashedAsset('logo', brand.logo.extension, brand.logo.type, brand.logo.body);
  return {
    files: [css, script, adminScript, ...(custom ? [custom] : []), ...(logo ? [logo] : [])],
    links: {
      stylesheet: basePath + css.path,
      script: basePath + script.path,
      adminScript: basePath + adminScript.path,
      customCss: custom && basePath + custom.path,
      logo: logo && brand.logo ? { src: basePath + logo.path, width: brand.logo.width, height: brand.logo.height } : undefined,
    },
  };
}
