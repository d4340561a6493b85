/**
 * Texts of the 3D viewer at /view3d and the drive's 3D actions (issue 21; spec sections 2 and 4; namespace `model3d`).
 * The server's messages (trials used up, conversion failed …) come in the answers and are shown as they are.
 */
export const model3d = {
  zh: {
    'model3d.convert': '转换为3D', 'model3d.open': '打开3D', 'model3d.queued': '文件已加入转换列表，正在转换中', 'model3d.busy': '有3D模型正在转换中，请重新选择',
    'model3d.notViewable': '此3D模型尚未转换，无法在网页中查看', 'model3d.converting': '正在转换… {{progress}}%', 'model3d.failed': '转换失败', 'model3d.retry': '重新转换', 'model3d.loading': '正在加载模型…', 'model3d.loadingDetail': '正在加载完整细节… {{loaded}} / {{total}}', 'model3d.coarse': '简化显示', 'model3d.loadFailed': '无法加载此模型',
    'model3d.fit': '适合窗口', 'model3d.view.top': '俯视', 'model3d.view.bottom': '仰视', 'model3d.view.front': '前视', 'model3d.view.back': '后视', 'model3d.view.left': '左视', 'model3d.view.right': '右视', 'model3d.view.iso': '等轴测',
    'model3d.perspective': '透视', 'model3d.orthographic': '正交', 'model3d.mode.shaded': '着色', 'model3d.mode.wireframe': '线框', 'model3d.mode.edges': '边线',
    'model3d.tree': '模型树', 'model3d.hide': '隐藏', 'model3d.isolate': '隔离', 'model3d.showAll': '全部显示', 'model3d.properties': '属性', 'model3d.name': '名称', 'model3d.noSelection': '点击一个构件查看其属性',
    'model3d.section': '剖切', 'model3d.section.off': '关闭', 'model3d.flip': '翻转', 'model3d.measure': '测量', 'model3d.measure.hint': '点击两个点测量距离', 'model3d.distance': '距离：{{value}}', 'model3d.screenshot': '截图', 'model3d.stats': '{{triangles}} 个三角形',
    'model3d.measure.mode.distance': '距离', 'model3d.measure.mode.angle': '角度', 'model3d.measure.mode.faces': '面夹角',
    'model3d.measure.hint.angle': '依次点击三个点，第二个点为角的顶点', 'model3d.measure.hint.faces': '点击两个面测量它们的夹角', 'model3d.angle': '角度：{{value}}', 'model3d.delta': 'ΔX {{x}}  ΔY {{y}}  ΔZ {{z}}',
    'model3d.snap.vertex': '顶点', 'model3d.snap.edge': '边', 'model3d.snap.face': '面', 'model3d.measure.units': '模型单位',
    'model3d.revit.open': '查看Revit信息', 'model3d.companionsChanged': '此模型旁的材质或贴图文件已更改，正在重新转换', 'model3d.revit.noGeometry': 'Revit模型无法在网页中以3D查看', 'model3d.revit.preview': 'Revit预览图', 'model3d.revit.noPreview': '此文件未保存预览图', 'model3d.revit.version': 'Revit版本', 'model3d.revit.projectTitle': '项目名称', 'model3d.revit.clientName': '客户名称', 'model3d.revit.projectNumber': '项目编号', 'model3d.revit.projectAddress': '项目地址', 'model3d.revit.lastSavePath': '最后保存路径', 'model3d.revit.centralModelPath': '中心模型路径', 'model3d.revit.worksharing': '工作共享',
  },
  en: {
    'model3d.convert': 'Convert to 3D', 'model3d.open': 'Open 3D', 'model3d.queued': 'The file has been added to the conversion list and is being converted', 'model3d.busy': 'There are 3D models being converting, please select again',
    'model3d.notViewable': 'This 3D model has not been converted and cannot be viewed on the web', 'model3d.converting': 'Converting… {{progress}}%', 'model3d.failed': 'Conversion failed', 'model3d.retry': 'Convert again', 'model3d.loading': 'Loading the model…', 'model3d.loadingDetail': 'Loading full detail… {{loaded}} of {{total}}', 'model3d.coarse': 'Simplified view', 'model3d.loadFailed': 'Failed to load this model',
    'model3d.fit': 'Fit', 'model3d.view.top': 'Top', 'model3d.view.bottom': 'Bottom', 'model3d.view.front': 'Front', 'model3d.view.back': 'Back', 'model3d.view.left': 'Left', 'model3d.view.right': 'Right', 'model3d.view.iso': 'Iso',
    'model3d.perspective': 'Perspective', 'model3d.orthographic': 'Orthographic', 'model3d.mode.shaded': 'Shaded', 'model3d.mode.wireframe': 'Wireframe', 'model3d.mode.edges': 'Edges',
    'model3d.tree': 'Model tree', 'model3d.hide': 'Hide', 'model3d.isolate': 'Isolate', 'model3d.showAll': 'Show all', 'model3d.properties': 'Properties', 'model3d.name': 'Name', 'model3d.noSelection': 'Click an element to see its properties',
    'model3d.section': 'Section', 'model3d.section.off': 'Off', 'model3d.flip': 'Flip', 'model3d.measure': 'Measure', 'model3d.measure.hint': 'Click two points to measure the distance', 'model3d.distance': 'Distance: {{value}}', 'model3d.screenshot': 'Screenshot', 'model3d.stats': '{{triangles}} triangles',
    'model3d.measure.mode.distance': 'Distance', 'model3d.measure.mode.angle': 'Angle', 'model3d.measure.mode.faces': 'Face angle',
    'model3d.measure.hint.angle': 'Click three points: the angle is at the second', 'model3d.measure.hint.faces': 'Click two faces to measure the angle between them', 'model3d.angle': 'Angle: {{value}}', 'model3d.delta': 'ΔX {{x}}  ΔY {{y}}  ΔZ {{z}}',
    'model3d.snap.vertex': 'Vertex', 'model3d.snap.edge': 'Edge', 'model3d.snap.face': 'Face', 'model3d.measure.units': 'model units',
    'model3d.revit.open': 'Revit info', 'model3d.companionsChanged': 'The material or texture files beside this model changed: converting it again', 'model3d.revit.noGeometry': 'Revit models cannot be viewed in 3D on the web', 'model3d.revit.preview': 'Revit preview', 'model3d.revit.noPreview': 'This file holds no preview image', 'model3d.revit.version': 'Revit version', 'model3d.revit.projectTitle': 'Project', 'model3d.revit.clientName': 'Client name', 'model3d.revit.projectNumber': 'Project number', 'model3d.revit.projectAddress': 'Project address', 'model3d.revit.lastSavePath': 'Last saved at', 'model3d.revit.centralModelPath': 'Central model', 'model3d.revit.worksharing': 'Worksharing',
  },
  ko: {
    'model3d.convert': '3D로 변환', 'model3d.open': '3D 열기', 'model3d.queued': '파일이 변환 목록에 추가되어 변환 중입니다', 'model3d.busy': '변환 중인 3D 모델이 있습니다. 다시 선택하세요',
    'model3d.notViewable': '이 3D 모델은 변환되지 않아 웹에서 볼 수 없습니다', 'model3d.converting': '변환 중… {{progress}}%', 'model3d.failed': '변환 실패', 'model3d.retry': '다시 변환', 'model3d.loading': '모델을 불러오는 중…', 'model3d.loadingDetail': '전체 디테일을 불러오는 중… {{loaded}} / {{total}}', 'model3d.coarse': '간략 표시', 'model3d.loadFailed': '이 모델을 불러오지 못했습니다',
    'model3d.fit': '화면 맞춤', 'model3d.view.top': '위', 'model3d.view.bottom': '아래', 'model3d.view.front': '앞', 'model3d.view.back': '뒤', 'model3d.view.left': '왼쪽', 'model3d.view.right': '오른쪽', 'model3d.view.iso': '등각',
    'model3d.perspective': '원근', 'model3d.orthographic': '직교', 'model3d.mode.shaded': '음영', 'model3d.mode.wireframe': '와이어프레임', 'model3d.mode.edges': '모서리',
    'model3d.tree': '모델 트리', 'model3d.hide': '숨기기', 'model3d.isolate': '분리', 'model3d.showAll': '모두 표시', 'model3d.properties': '속성', 'model3d.name': '이름', 'model3d.noSelection': '요소를 클릭하면 속성이 표시됩니다',
    'model3d.section': '단면', 'model3d.section.off': '끄기', 'model3d.flip': '뒤집기', 'model3d.measure': '측정', 'model3d.measure.hint': '두 점을 클릭해 거리를 측정하세요', 'model3d.distance': '거리: {{value}}', 'model3d.screenshot': '스크린샷', 'model3d.stats': '삼각형 {{triangles}}개',
    'model3d.measure.mode.distance': '거리', 'model3d.measure.mode.angle': '각도', 'model3d.measure.mode.faces': '면 사이 각도',
    'model3d.measure.hint.angle': '세 점을 클릭하세요. 두 번째 점이 각의 꼭짓점입니다', 'model3d.measure.hint.faces': '두 면을 클릭해 사이 각도를 측정하세요', 'model3d.angle': '각도: {{value}}', 'model3d.delta': 'ΔX {{x}}  ΔY {{y}}  ΔZ {{z}}',
    'model3d.snap.vertex': '꼭짓점', 'model3d.snap.edge': '모서리', 'model3d.snap.face': '면', 'model3d.measure.units': '모델 단위',
    'model3d.revit.open': 'Revit 정보', 'model3d.companionsChanged': '이 모델 옆의 재질 또는 텍스처 파일이 바뀌어 다시 변환합니다', 'model3d.revit.noGeometry': 'Revit 모델은 웹에서 3D로 볼 수 없습니다', 'model3d.revit.preview': 'Revit 미리보기', 'model3d.revit.noPreview': '이 파일에는 미리보기 이미지가 없습니다', 'model3d.revit.version': 'Revit 버전', 'model3d.revit.projectTitle': '프로젝트', 'model3d.revit.clientName': '클라이언트 이름', 'model3d.revit.projectNumber': '프로젝트 번호', 'model3d.revit.projectAddress': '프로젝트 주소', 'model3d.revit.lastSavePath': '마지막 저장 위치', 'model3d.revit.centralModelPath': '중앙 모델', 'model3d.revit.worksharing': '작업 공유',
  },
  de: {
    'model3d.convert': 'In 3D umwandeln', 'model3d.open': '3D öffnen', 'model3d.queued': 'Die Datei wurde zur Umwandlungsliste hinzugefügt und wird umgewandelt', 'model3d.busy': 'Es werden gerade 3D-Modelle umgewandelt, bitte erneut auswählen',
    'model3d.notViewable': 'Dieses 3D-Modell ist nicht umgewandelt und kann im Web nicht angezeigt werden', 'model3d.converting': 'Wird umgewandelt… {{progress}} %', 'model3d.failed': 'Umwandlung fehlgeschlagen', 'model3d.retry': 'Erneut umwandeln', 'model3d.loading': 'Modell wird geladen…', 'model3d.loadingDetail': 'Volle Detailstufe wird geladen… {{loaded}} von {{total}}', 'model3d.coarse': 'Vereinfachte Ansicht', 'model3d.loadFailed': 'Das Modell konnte nicht geladen werden',
    'model3d.fit': 'Einpassen', 'model3d.view.top': 'Oben', 'model3d.view.bottom': 'Unten', 'model3d.view.front': 'Vorne', 'model3d.view.back': 'Hinten', 'model3d.view.left': 'Links', 'model3d.view.right': 'Rechts', 'model3d.view.iso': 'Isometrisch',
    'model3d.perspective': 'Perspektive', 'model3d.orthographic': 'Orthogonal', 'model3d.mode.shaded': 'Schattiert', 'model3d.mode.wireframe': 'Drahtgitter', 'model3d.mode.edges': 'Kanten',
    'model3d.tree': 'Modellbaum', 'model3d.hide': 'Ausblenden', 'model3d.isolate': 'Isolieren', 'model3d.showAll': 'Alle zeigen', 'model3d.properties': 'Eigenschaften', 'model3d.name': 'Name', 'model3d.noSelection': 'Ein Element anklicken, um seine Eigenschaften zu sehen',
    'model3d.section': 'Schnitt', 'model3d.section.off': 'Aus', 'model3d.flip': 'Umkehren', 'model3d.measure': 'Messen', 'model3d.measure.hint': 'Zwei Punkte anklicken, um den Abstand zu messen', 'model3d.distance': 'Abstand: {{value}}', 'model3d.screenshot': 'Bildschirmfoto', 'model3d.stats': '{{triangles}} Dreiecke',
    'model3d.measure.mode.distance': 'Abstand', 'model3d.measure.mode.angle': 'Winkel', 'model3d.measure.mode.faces': 'Flächenwinkel',
    'model3d.measure.hint.angle': 'Drei Punkte anklicken: der Winkel liegt am zweiten', 'model3d.measure.hint.faces': 'Zwei Flächen anklicken, um den Winkel zwischen ihnen zu messen', 'model3d.angle': 'Winkel: {{value}}', 'model3d.delta': 'ΔX {{x}}  ΔY {{y}}  ΔZ {{z}}',
    'model3d.snap.vertex': 'Eckpunkt', 'model3d.snap.edge': 'Kante', 'model3d.snap.face': 'Fläche', 'model3d.measure.units': 'Modelleinheiten',
    'model3d.revit.open': 'Revit-Info', 'model3d.companionsChanged': 'Die Material- oder Texturdateien neben diesem Modell haben sich geändert: es wird erneut umgewandelt', 'model3d.revit.noGeometry': 'Revit-Modelle können im Web nicht in 3D angezeigt werden', 'model3d.revit.preview': 'Revit-Vorschau', 'model3d.revit.noPreview': 'Diese Datei enthält kein Vorschaubild', 'model3d.revit.version': 'Revit-Version', 'model3d.revit.projectTitle': 'Projekt', 'model3d.revit.clientName': 'Auftraggeber', 'model3d.revit.projectNumber': 'Projektnummer', 'model3d.revit.projectAddress': 'Projektadresse', 'model3d.revit.lastSavePath': 'Zuletzt gespeichert unter', 'model3d.revit.centralModelPath': 'Zentralmodell', 'model3d.revit.worksharing': 'Zusammenarbeit',
  },
} as const;
