/**
 * Texts of the 3D conversions in the task panel's 3D tab and on /yun/transformer, /webH5/transformer (issue 21;
 * namespace `model3dTasks`): one name per stage the server reports (contracts MODEL3D_STAGES).
 */
export const model3dTasks = {
  zh: {
    'tasks.tab': '3D模型', 'tasks.title': '3D模型转换', 'tasks.empty': '暂无3D模型转换', 'tasks.open': '打开', 'tasks.retry': '重新转换', 'tasks.gone': '源文件已不存在',
    'state.0': '转换中', 'state.1': '转换完成', 'state.2': '转换失败',
    'stage.queued': '排队中', 'stage.read': '读取文件', 'stage.parse': '解析与网格化', 'stage.import': '导入构件', 'stage.document': '构建模型', 'stage.thumbnail': '生成缩略图', 'stage.compress': '压缩', 'stage.write': '写入GLB', 'stage.store': '保存', 'stage.done': '完成', 'stage.failed': '失败',
  },
  en: {
    'tasks.tab': '3D models', 'tasks.title': '3D conversions', 'tasks.empty': 'No 3D conversions yet', 'tasks.open': 'Open', 'tasks.retry': 'Convert again', 'tasks.gone': 'The source file is gone',
    'state.0': 'Converting', 'state.1': 'Converted', 'state.2': 'Conversion failed',
    'stage.queued': 'Queued', 'stage.read': 'Reading the file', 'stage.parse': 'Reading and tessellating', 'stage.import': 'Importing parts', 'stage.document': 'Building the model', 'stage.thumbnail': 'Drawing the thumbnail', 'stage.compress': 'Compressing', 'stage.write': 'Writing the GLB', 'stage.store': 'Saving', 'stage.done': 'Done', 'stage.failed': 'Failed',
  },
  ko: {
    'tasks.tab': '3D 모델', 'tasks.title': '3D 변환', 'tasks.empty': '3D 변환이 없습니다', 'tasks.open': '열기', 'tasks.retry': '다시 변환', 'tasks.gone': '원본 파일이 없습니다',
    'state.0': '변환 중', 'state.1': '변환 완료', 'state.2': '변환 실패',
    'stage.queued': '대기 중', 'stage.read': '파일 읽는 중', 'stage.parse': '읽기 및 메시 생성', 'stage.import': '부품 가져오는 중', 'stage.document': '모델 구성 중', 'stage.thumbnail': '썸네일 생성 중', 'stage.compress': '압축 중', 'stage.write': 'GLB 쓰는 중', 'stage.store': '저장 중', 'stage.done': '완료', 'stage.failed': '실패',
  },
  de: {
    'tasks.tab': '3D-Modelle', 'tasks.title': '3D-Umwandlungen', 'tasks.empty': 'Noch keine 3D-Umwandlungen', 'tasks.open': 'Öffnen', 'tasks.retry': 'Erneut umwandeln', 'tasks.gone': 'Die Quelldatei ist nicht mehr vorhanden',
    'state.0': 'Wird umgewandelt', 'state.1': 'Umgewandelt', 'state.2': 'Umwandlung fehlgeschlagen',
    'stage.queued': 'In der Warteschlange', 'stage.read': 'Datei wird gelesen', 'stage.parse': 'Lesen und Triangulieren', 'stage.import': 'Teile werden importiert', 'stage.document': 'Modell wird aufgebaut', 'stage.thumbnail': 'Vorschaubild wird erstellt', 'stage.compress': 'Komprimieren', 'stage.write': 'GLB wird geschrieben', 'stage.store': 'Speichern', 'stage.done': 'Fertig', 'stage.failed': 'Fehlgeschlagen',
  },
} as const;
