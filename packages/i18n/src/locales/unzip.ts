/**
 * Texts of cloud decompression (issue 18): the drive's Decompress action, the same-name and password dialogs, the task
 * panel's unzip tab (namespace `unzip`). The server's messages (already queued, wrong password, damaged …) are in errors.ts.
 */
export const unzip = {
  zh: {
    'unzip.action': '解压', 'unzip.queued': '已加入解压列表', 'unzip.cancel': '取消', 'unzip.openFolder': '打开文件夹', 'unzip.again': '重新解压',
    'unzip.repeat.title': '已存在同名文件夹', 'unzip.repeat.text': '此位置已有文件夹“{{name}}”。打开它，或重新解压到“{{newName}}”？',
    'unzip.password.title': '输入解压密码', 'unzip.password.text': '“{{name}}”有密码，请输入解压密码', 'unzip.password.label': '密码', 'unzip.password.enter': '输入密码',
    'unzip.state.0': '等待中', 'unzip.state.1': '解压中', 'unzip.state.2': '解压成功', 'unzip.state.3': '解压失败', 'unzip.state.4': '已锁定', 'unzip.state.5': '密码错误', 'unzip.state.6': '需要密码',
    'unzip.entries': '{{done}} / {{total}} 个文件', 'unzip.reports': '{{count}} 个名称已更改或跳过', 'unzip.report.renamed': '{{name}} → {{to}}', 'unzip.report.refused': '{{name}}：未解压',
    'unzip.reason.forbidden-chars': '含非法字符', 'unzip.reason.too-long': '名称过长', 'unzip.reason.duplicate': '名称重复', 'unzip.reason.parent-path': '含“..”路径', 'unzip.reason.absolute-path': '绝对路径', 'unzip.reason.drive-letter': '含盘符', 'unzip.reason.symlink': '符号链接', 'unzip.reason.hardlink': '硬链接', 'unzip.reason.empty-name': '名称为空',
  },
  en: {
    'unzip.action': 'Decompress', 'unzip.queued': 'Added to the decompression list', 'unzip.cancel': 'Cancel', 'unzip.openFolder': 'Open folder', 'unzip.again': 'Decompress again',
    'unzip.repeat.title': 'A folder with the same name already exists', 'unzip.repeat.text': 'The folder "{{name}}" is already here. Open it, or decompress again into "{{newName}}"?',
    'unzip.password.title': 'Decompression password', 'unzip.password.text': '"{{name}}" has a password: enter it to decompress', 'unzip.password.label': 'Password', 'unzip.password.enter': 'Enter password',
    'unzip.state.0': 'Waiting', 'unzip.state.1': 'Unpacking', 'unzip.state.2': 'Successful', 'unzip.state.3': 'Failed', 'unzip.state.4': 'Locked', 'unzip.state.5': 'Wrong password', 'unzip.state.6': 'Password-protected',
    'unzip.entries': '{{done}} / {{total}} files', 'unzip.reports': '{{count}} name(s) changed or skipped', 'unzip.report.renamed': '{{name}} → {{to}}', 'unzip.report.refused': '{{name}}: not extracted',
    'unzip.reason.forbidden-chars': 'forbidden characters', 'unzip.reason.too-long': 'name too long', 'unzip.reason.duplicate': 'duplicate name', 'unzip.reason.parent-path': '".." in the path', 'unzip.reason.absolute-path': 'absolute path', 'unzip.reason.drive-letter': 'drive letter', 'unzip.reason.symlink': 'symbolic link', 'unzip.reason.hardlink': 'hard link', 'unzip.reason.empty-name': 'empty name',
  },
  ko: {
    'unzip.action': '압축 해제', 'unzip.queued': '압축 해제 목록에 추가했습니다', 'unzip.cancel': '취소', 'unzip.openFolder': '폴더 열기', 'unzip.again': '다시 압축 해제',
    'unzip.repeat.title': '같은 이름의 폴더가 이미 있습니다', 'unzip.repeat.text': '"{{name}}" 폴더가 이미 있습니다. 열거나 "{{newName}}"에 다시 압축을 푸시겠습니까?',
    'unzip.password.title': '압축 해제 비밀번호', 'unzip.password.text': '"{{name}}"에 비밀번호가 있습니다. 입력하세요', 'unzip.password.label': '비밀번호', 'unzip.password.enter': '비밀번호 입력',
    'unzip.state.0': '대기 중', 'unzip.state.1': '압축 해제 중', 'unzip.state.2': '성공', 'unzip.state.3': '실패', 'unzip.state.4': '잠김', 'unzip.state.5': '비밀번호 오류', 'unzip.state.6': '비밀번호 필요',
    'unzip.entries': '파일 {{done}} / {{total}}개', 'unzip.reports': '이름 {{count}}개 변경 또는 건너뜀', 'unzip.report.renamed': '{{name}} → {{to}}', 'unzip.report.refused': '{{name}}: 압축 해제 안 함',
    'unzip.reason.forbidden-chars': '금지된 문자', 'unzip.reason.too-long': '이름이 너무 김', 'unzip.reason.duplicate': '중복된 이름', 'unzip.reason.parent-path': '경로에 ".." 포함', 'unzip.reason.absolute-path': '절대 경로', 'unzip.reason.drive-letter': '드라이브 문자', 'unzip.reason.symlink': '심볼릭 링크', 'unzip.reason.hardlink': '하드 링크', 'unzip.reason.empty-name': '빈 이름',
  },
  de: {
    'unzip.action': 'Entpacken', 'unzip.queued': 'Zur Entpack-Liste hinzugefügt', 'unzip.cancel': 'Abbrechen', 'unzip.openFolder': 'Ordner öffnen', 'unzip.again': 'Erneut entpacken',
    'unzip.repeat.title': 'Ein Ordner mit demselben Namen existiert bereits', 'unzip.repeat.text': 'Der Ordner „{{name}}“ ist schon hier. Öffnen oder erneut nach „{{newName}}“ entpacken?',
    'unzip.password.title': 'Entpack-Passwort', 'unzip.password.text': '„{{name}}“ hat ein Passwort: zum Entpacken eingeben', 'unzip.password.label': 'Passwort', 'unzip.password.enter': 'Passwort eingeben',
    'unzip.state.0': 'Wartet', 'unzip.state.1': 'Wird entpackt', 'unzip.state.2': 'Erfolgreich', 'unzip.state.3': 'Fehlgeschlagen', 'unzip.state.4': 'Gesperrt', 'unzip.state.5': 'Falsches Passwort', 'unzip.state.6': 'Passwortgeschützt',
    'unzip.entries': '{{done}} / {{total}} Dateien', 'unzip.reports': '{{count}} Name(n) geändert oder übersprungen', 'unzip.report.renamed': '{{name}} → {{to}}', 'unzip.report.refused': '{{name}}: nicht entpackt',
    'unzip.reason.forbidden-chars': 'unzulässige Zeichen', 'unzip.reason.too-long': 'Name zu lang', 'unzip.reason.duplicate': 'doppelter Name', 'unzip.reason.parent-path': '„..“ im Pfad', 'unzip.reason.absolute-path': 'absoluter Pfad', 'unzip.reason.drive-letter': 'Laufwerksbuchstabe', 'unzip.reason.symlink': 'symbolischer Link', 'unzip.reason.hardlink': 'harter Link', 'unzip.reason.empty-name': 'leerer Name',
  },
} as const;
