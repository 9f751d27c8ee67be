/** An S3 protocol error: HTTP status, S3 error code and the extra elements S3 puts in the XML body. */
export class S3Error extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'S3Error';
  }
}

export const s3Errors = {
  accessDenied: (message = 'Access Denied', details?: Record<string, string>) => new S3Error(403, 'AccessDenied', message, details),
  invalidAccessKeyId: (accessKey: string) =>
    new S3Error(403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.', { AWSAccessKeyId: accessKey }),
  signatureDoesNotMatch: (details: Record<string, string>) =>
    new S3Error(
      403,
      'SignatureDoesNotMatch',
      'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
      details,
    ),
  requestTimeTooSkewed: (requestTime: string, serverTime: string) =>
    new S3Error(403, 'RequestTimeTooSkewed', 'The difference between the request time and the current time is too large.', {
      RequestTime: requestTime,
      ServerTime: serverTime,
      MaxAllowedSkewMilliseconds: '900000',
    }),
  authorizationHeaderMalformed: (message: string, details?: Record<string, string>) =>
    new S3Error(400, 'AuthorizationHeaderMalformed', message, details),
  authorizationQueryParametersError: (message: string, details?: Record<string, string>) =>
    new S3Error(400, 'AuthorizationQueryParametersError', message, details),
  invalidRequest: (message: string) => new S3Error(400, 'InvalidRequest', message),
  invalidArgument: (message: string, name?: string, value?: string) =>
    new S3Error(400, 'InvalidArgument', message, name === undefined ? {} : { ArgumentName: name, ArgumentValue: value ?? '' }),
  contentSha256Mismatch: (clientHash: string, computedHash: string) =>
    new S3Error(400, 'XAmzContentSHA256Mismatch', "The provided 'x-amz-content-sha256' header does not match what was computed.", {
      ClientComputedContentSHA256: clientHash,
      S3ComputedContentSHA256: computedHash,
    }),
  badDigest: () => new S3Error(400, 'BadDigest', 'The Content-MD5 you specified did not match what we received.'),
  invalidDigest: () => new S3Error(400, 'InvalidDigest', 'The Content-MD5 you specified is not valid.'),
  incompleteBody: () => new S3Error(400, 'IncompleteBody', 'You did not provide the number of bytes specified by the Content-Length HTTP header.'),
  malformedXml: () =>
    new S3Error(400, 'MalformedXML', 'The XML you provided was not well-formed or did not validate against our published schema.'),
  invalidBucketName: (bucket: string) => new S3Error(400, 'InvalidBucketName', 'The specified bucket is not valid.', { BucketName: bucket }),
  keyTooLong: () => new S3Error(400, 'KeyTooLongError', 'Your key is too long.'),
  noSuchBucket: (bucket: string) => new S3Error(404, 'NoSuchBucket', 'The specified bucket does not exist', { BucketName: bucket }),
  noSuchKey: (key: string) => new S3Error(404, 'NoSuchKey', 'The specified key does not exist.', { Key: key }),
  noSuchUpload: (uploadId: string) =>
    new S3Error(
      404,
      'NoSuchUpload',
      'The specified upload does not exist. The upload ID may be invalid, or the upload may have been aborted or completed.',
      { UploadId: uploadId },
    ),
  bucketAlreadyOwnedByYou: (bucket: string) =>
    new S3Error(409, 'BucketAlreadyOwnedByYou', 'Your previous request to create the named bucket succeeded and you already own it.', {
      BucketName: bucket,
    }),
  bucketNotEmpty: (bucket: string) =>
    new S3Error(409, 'BucketNotEmpty', 'The bucket you tried to delete is not empty', { BucketName: bucket }),
  invalidLocationConstraint: () => new S3Error(400, 'InvalidLocationConstraint', 'The specified location-constraint is not valid'),
  invalidPart: () =>
    new S3Error(
      400,
      'InvalidPart',
      'One or more of the specified parts could not be found. The part may not have been uploaded, or the specified entity tag may not match the part\'s entity tag.',
    ),
  invalidPartOrder: () =>
    new S3Error(400, 'InvalidPartOrder', 'The list of parts was not in ascending order. The parts list must be specified in order by part number.'),
  entityTooSmall: () => new S3Error(400, 'EntityTooSmall', 'Your proposed upload is smaller than the minimum allowed object size.'),
  invalidRange: (size: number) =>
    new S3Error(416, 'InvalidRange', 'The requested range is not satisfiable', { ActualObjectSize: String(size) }),
  preconditionFailed: (condition: string) =>
    new S3Error(412, 'PreconditionFailed', 'At least one of the pre-conditions you specified did not hold', { Condition: condition }),
  methodNotAllowed: (method: string) =>
    new S3Error(405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.', { Method: method }),
  notImplemented: () => new S3Error(501, 'NotImplemented', 'A header or query you provided implies functionality that is not implemented.'),
  internalError: () => new S3Error(500, 'InternalError', 'We encountered an internal error. Please try again.'),
};
