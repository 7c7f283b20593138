// Remix's classic compiler turns a CSS import into the stylesheet's public URL.
declare module "*.css" {
  const href: string;
  export default href;
}
