/** Texts of the login site (namespace `sso`). */
export const sso = {
  zh: {
    title: 'CADCloud 账号', signIn: '登录', register: '注册', email: '邮箱', password: '密码', confirmPassword: '确认密码', name: '昵称',
    forgot: '忘记密码？', noAccount: '还没有账号？', haveAccount: '已有账号？', sendReset: '发送重置邮件', resetTitle: '重置密码', newPassword: '新密码', setPassword: '设置新密码',
    resetSent: '如果该邮箱已注册，我们已发送一封重置密码的邮件。', resetDone: '密码已重置，请重新登录。', signedOut: '您已退出登录。', signOutConfirm: '确定要退出登录吗？', signOut: '退出登录', back: '返回',
    'err.credentials.wrong': '邮箱或密码错误', 'err.email.invalid': '邮箱格式不正确', 'err.email.taken': '该邮箱已注册', 'err.password.weak': '密码至少 8 位', 'err.password.mismatch': '两次输入的密码不一致', 'err.reset.invalid': '重置链接无效或已过期', 'err.tooMany': '尝试次数过多，请稍后再试',
    'mail.reset.subject': 'CADCloud 重置密码', 'mail.reset.body': '请点击以下链接重置密码（1 小时内有效，仅可使用一次）：\n{0}\n\n如果不是您本人操作，请忽略此邮件。',
  },
  en: {
    title: 'CADCloud account', signIn: 'Sign in', register: 'Register', email: 'E-mail', password: 'Password', confirmPassword: 'Confirm password', name: 'Name',
    forgot: 'Forgot password?', noAccount: 'No account yet?', haveAccount: 'Already have an account?', sendReset: 'Send reset e-mail', resetTitle: 'Reset password', newPassword: 'New password', setPassword: 'Set new password',
    resetSent: 'If this e-mail is registered, we have sent a message to reset the password.', resetDone: 'Your password was reset. Please sign in.', signedOut: 'You are signed out.', signOutConfirm: 'Do you want to sign out?', signOut: 'Sign out', back: 'Back',
    'err.credentials.wrong': 'Wrong e-mail or password', 'err.email.invalid': 'E-mail format is incorrect', 'err.email.taken': 'This e-mail is already registered', 'err.password.weak': 'The password needs at least 8 characters', 'err.password.mismatch': 'The passwords do not match', 'err.reset.invalid': 'The reset link is invalid or has expired', 'err.tooMany': 'Too many attempts, please try again later',
    'mail.reset.subject': 'CADCloud password reset', 'mail.reset.body': 'Open this link to reset your password (valid for 1 hour, once):\n{0}\n\nIf you did not ask for this, ignore this e-mail.',
  },
  ko: {
    title: 'CADCloud 계정', signIn: '로그인', register: '회원가입', email: '이메일', password: '비밀번호', confirmPassword: '비밀번호 확인', name: '이름',
    forgot: '비밀번호를 잊으셨나요?', noAccount: '계정이 없으신가요?', haveAccount: '이미 계정이 있으신가요?', sendReset: '재설정 메일 보내기', resetTitle: '비밀번호 재설정', newPassword: '새 비밀번호', setPassword: '새 비밀번호 설정',
    resetSent: '등록된 이메일이면 비밀번호 재설정 메일을 보냈습니다.', resetDone: '비밀번호가 재설정되었습니다. 다시 로그인하세요.', signedOut: '로그아웃되었습니다.', signOutConfirm: '로그아웃하시겠습니까?', signOut: '로그아웃', back: '뒤로',
    'err.credentials.wrong': '이메일 또는 비밀번호가 잘못되었습니다', 'err.email.invalid': '이메일 형식이 올바르지 않습니다', 'err.email.taken': '이미 등록된 이메일입니다', 'err.password.weak': '비밀번호는 8자 이상이어야 합니다', 'err.password.mismatch': '비밀번호가 일치하지 않습니다', 'err.reset.invalid': '재설정 링크가 잘못되었거나 만료되었습니다', 'err.tooMany': '시도 횟수가 너무 많습니다. 잠시 후 다시 시도하세요',
    'mail.reset.subject': 'CADCloud 비밀번호 재설정', 'mail.reset.body': '아래 링크를 열어 비밀번호를 재설정하세요 (1시간 동안 한 번만 유효):\n{0}\n\n요청하지 않았다면 이 메일을 무시하세요.',
  },
  de: {
    title: 'CADCloud-Konto', signIn: 'Anmelden', register: 'Registrieren', email: 'E-Mail', password: 'Passwort', confirmPassword: 'Passwort bestätigen', name: 'Name',
    forgot: 'Passwort vergessen?', noAccount: 'Noch kein Konto?', haveAccount: 'Schon ein Konto?', sendReset: 'Link zum Zurücksetzen senden', resetTitle: 'Passwort zurücksetzen', newPassword: 'Neues Passwort', setPassword: 'Neues Passwort setzen',
    resetSent: 'Falls diese E-Mail registriert ist, haben wir eine Nachricht zum Zurücksetzen gesendet.', resetDone: 'Ihr Passwort wurde zurückgesetzt. Bitte melden Sie sich an.', signedOut: 'Sie sind abgemeldet.', signOutConfirm: 'Möchten Sie sich abmelden?', signOut: 'Abmelden', back: 'Zurück',
    'err.credentials.wrong': 'E-Mail oder Passwort falsch', 'err.email.invalid': 'E-Mail-Format ist falsch', 'err.email.taken': 'Diese E-Mail ist bereits registriert', 'err.password.weak': 'Das Passwort braucht mindestens 8 Zeichen', 'err.password.mismatch': 'Die Passwörter stimmen nicht überein', 'err.reset.invalid': 'Der Link ist ungültig oder abgelaufen', 'err.tooMany': 'Zu viele Versuche, bitte später erneut versuchen',
    'mail.reset.subject': 'CADCloud: Passwort zurücksetzen', 'mail.reset.body': 'Öffnen Sie diesen Link, um Ihr Passwort zurückzusetzen (1 Stunde gültig, einmalig):\n{0}\n\nFalls Sie das nicht angefordert haben, ignorieren Sie diese E-Mail.',
  },
} as const;
