import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { callWebService } from '../../transport/request';

/** One item's user request, read and checked before anything is sent. */
export interface UserRequest {
	email: string;
	params: IDataObject;
}

/** Sends an addUser or editUser request; the output item carries the email it was about. */
export async function sendUserRequest(
	context: IExecuteFunctions,
	endpoint: 'addUser' | 'editUser',
	request: UserRequest,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const result = await callWebService.call(context, endpoint, request.params, { itemIndex });
	return [{ json: { ...result, email: request.email }, pairedItem: { item: itemIndex } }];
}
