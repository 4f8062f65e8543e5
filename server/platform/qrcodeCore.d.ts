/**
 * The qrcode package's own symbol maker (its `create`), which its main module re-exports beside its renderers: the
 * same function and types (@types/qrcode), reached without loading the renderers.
 */
declare module 'qrcode/lib/core/qrcode' {
  export { create } from 'qrcode';
}
