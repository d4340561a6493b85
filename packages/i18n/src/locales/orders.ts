/**
 * Texts of orders the server writes itself (namespace `orders`): the order status names (spec section 4; the
 * `{0}` of 'Cannot cancel the order of {0}') and the built-in sandbox provider's pay page (issue 22 part 3).
 */
export const orders = {
  zh: {
    'status.0': '未支付', 'status.1': '支付成功', 'status.2': '已取消', 'status.3': '服务已过期', 'status.4': '支付失败', 'status.5': '已退款', 'status.6': '支付确认中', 'status.7': '已超时',
    'sandbox.title': '沙箱支付', 'sandbox.note': '这是内置的测试支付渠道，不会产生真实扣款。', 'sandbox.plan': '套餐', 'sandbox.amount': '金额', 'sandbox.order': '订单号',
    'sandbox.approve': '同意付款', 'sandbox.decline': '拒绝付款', 'sandbox.timeout': '模拟超时',
    'sandbox.state.open': '等待付款', 'sandbox.state.paid': '已付款，正在通知商户', 'sandbox.state.declined': '已拒绝付款', 'sandbox.state.closed': '支付已关闭', 'sandbox.state.refunded': '已退款',
  },
  en: {
    'status.0': 'unpaid', 'status.1': 'paid successfully', 'status.2': 'cancelled', 'status.3': 'service expired', 'status.4': 'payment failed', 'status.5': 'refunded', 'status.6': 'payment confirming', 'status.7': 'timed out',
    'sandbox.title': 'Sandbox payment', 'sandbox.note': 'This is the built-in test payment channel: no real money is charged.', 'sandbox.plan': 'Plan', 'sandbox.amount': 'Amount', 'sandbox.order': 'Order',
    'sandbox.approve': 'Approve', 'sandbox.decline': 'Decline', 'sandbox.timeout': 'Time out',
    'sandbox.state.open': 'Waiting for payment', 'sandbox.state.paid': 'Paid; the merchant is being notified', 'sandbox.state.declined': 'Payment declined', 'sandbox.state.closed': 'Payment closed', 'sandbox.state.refunded': 'Refunded',
  },
  ko: {
    'status.0': '미결제', 'status.1': '결제 완료', 'status.2': '취소됨', 'status.3': '서비스 만료', 'status.4': '결제 실패', 'status.5': '환불됨', 'status.6': '결제 확인 중', 'status.7': '시간 초과',
    'sandbox.title': '샌드박스 결제', 'sandbox.note': '내장된 테스트 결제 채널입니다. 실제로 청구되지 않습니다.', 'sandbox.plan': '요금제', 'sandbox.amount': '금액', 'sandbox.order': '주문 번호',
    'sandbox.approve': '결제 승인', 'sandbox.decline': '결제 거절', 'sandbox.timeout': '시간 초과',
    'sandbox.state.open': '결제 대기 중', 'sandbox.state.paid': '결제됨, 판매자에게 알리는 중', 'sandbox.state.declined': '결제 거절됨', 'sandbox.state.closed': '결제 종료됨', 'sandbox.state.refunded': '환불됨',
  },
  de: {
    'status.0': 'unbezahlt', 'status.1': 'erfolgreich bezahlt', 'status.2': 'storniert', 'status.3': 'Leistung abgelaufen', 'status.4': 'Zahlung fehlgeschlagen', 'status.5': 'erstattet', 'status.6': 'Zahlung wird bestätigt', 'status.7': 'Zeit abgelaufen',
    'sandbox.title': 'Sandbox-Zahlung', 'sandbox.note': 'Dies ist der eingebaute Test-Zahlungskanal: Es wird kein echtes Geld abgebucht.', 'sandbox.plan': 'Tarif', 'sandbox.amount': 'Betrag', 'sandbox.order': 'Bestellung',
    'sandbox.approve': 'Bezahlen', 'sandbox.decline': 'Ablehnen', 'sandbox.timeout': 'Zeitüberschreitung',
    'sandbox.state.open': 'Warten auf Zahlung', 'sandbox.state.paid': 'Bezahlt; der Händler wird benachrichtigt', 'sandbox.state.declined': 'Zahlung abgelehnt', 'sandbox.state.closed': 'Zahlung geschlossen', 'sandbox.state.refunded': 'Erstattet',
  },
};
