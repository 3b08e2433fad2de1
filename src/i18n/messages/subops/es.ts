import type { subopsEn } from './en.ts';

export const subopsEs: Record<keyof typeof subopsEn, string> = {
  rest_user_builtin: 'Este es un usuario interno del servicio: no puede iniciar sesión, tener contraseñas de aplicación, ser eliminado ni cambiar de rol.',
};
