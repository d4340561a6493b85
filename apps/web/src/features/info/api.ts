import { FEEDBACK_PATHS, type AdviceAddRequest, type InfoPageResult } from '@cadcloud/contracts';
import { call } from '../../lib/api.ts';

export const sendFeedback = (d: AdviceAddRequest) => call<{ id: string }>(FEEDBACK_PATHS.add, d);
export const fetchInfoPage = (name: 'contact' | 'declaration') => call<InfoPageResult>(FEEDBACK_PATHS.infoPage, { name });
