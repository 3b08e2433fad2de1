/** Built-in users (120 §7) and the mail test command (120 §10.3). */
export const subopsEn = {
  rest_user_builtin: 'This is a built-in user of the service: it cannot sign in, hold application passwords, be deleted or change role.',
  mail_test_off: 'Mail is off: CALENDAR_SMTP_URL is not set.',
  mail_test_subject: 'Test message from the calendar',
  mail_test_text: "This message was sent to check the calendar's mail settings. Nothing needs to be done.",
};
