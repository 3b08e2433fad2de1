import type { subopsEn } from './en.ts';

export const subopsEs: Record<keyof typeof subopsEn, string> = {
  rest_user_builtin: 'Este es un usuario interno del servicio: no puede iniciar sesión, tener contraseñas de aplicación, ser eliminado ni cambiar de rol.',
  mail_test_off: 'El correo está desactivado: CALENDAR_SMTP_URL no está definido.',
  mail_test_subject: 'Mensaje de prueba del calendario',
  mail_test_text: 'Este mensaje se envió para comprobar la configuración de correo del calendario. No es necesario hacer nada.',
};
