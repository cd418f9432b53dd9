/** Types of scripts/build-viewer.mjs (the viewer's template build). */
export declare const TEMPLATE_PATH: string;
export declare function viewerTemplate(): Promise<string>;
