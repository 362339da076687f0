// The service description ASMX publishes at {service_path}?WSDL: document/literal wrapped elements
// with minOccurs="0" string parameters, ArrayOfRendering/Rendering types, four ports (…Soap,
// …Soap12, …HttpGet, …HttpPost) addressed at the host the client asked for. Also the small HTML help
// pages ASMX shows at {service_path} and {service_path}?op=Name.
import { OPERATION_NAMES, OPERATION_PARAMS, type OperationName } from './operations';
import { escapeAttribute, escapeText } from './xml';
import { SOAP11_ENVELOPE_NS, SOAP12_ENVELOPE_NS } from './bindings/soap';

export const SERVICE_NAME = 'TowerCoverage';

const DOCS: Record<OperationName, string> = {
  SitesAPI: 'Creates a site (Siteid blank) or changes an existing one. Returns the new site ID, or "Site <id> updated.".',
  GetRenderingQualityList: 'Returns the rendering quality values a coverage can use.',
  EusReprocessAPI: 'Reprocesses an EUS submission into a Multi Map without creating a new entry; emailsend=1 resends the email and pushes the XML.',
};

function resultType(operation: OperationName): string {
  return operation === 'GetRenderingQualityList' ? 'tns:ArrayOfRendering' : 's:string';
}

export function wsdlDocument(namespace: string, location: string): string {
  const ns = escapeAttribute(namespace);
  const loc = escapeAttribute(location);
  const lines: string[] = [];
  const add = (line: string): void => {
    lines.push(line);
  };
  add('<?xml version="1.0" encoding="utf-8"?>');
  add(
    `<wsdl:definitions xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:tm="http://microsoft.com/wsdl/mime/textMatching/" xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/" xmlns:mime="http://schemas.xmlsoap.org/wsdl/mime/" xmlns:tns="${ns}" xmlns:s="http://www.w3.org/2001/XMLSchema" xmlns:soap12="http://schemas.xmlsoap.org/wsdl/soap12/" xmlns:http="http://schemas.xmlsoap.org/wsdl/http/" targetNamespace="${ns}" xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/">`,
  );
  add('  <wsdl:types>');
  add(`    <s:schema elementFormDefault="qualified" targetNamespace="${ns}">`);
  for (const operation of OPERATION_NAMES) {
    add(`      <s:element name="${operation}">`);
    add('        <s:complexType>');
    add('          <s:sequence>');
    for (const param of OPERATION_PARAMS[operation]) add(`            <s:element minOccurs="0" maxOccurs="1" name="${param}" type="s:string" />`);
    add('          </s:sequence>');
    add('        </s:complexType>');
    add('      </s:element>');
    add(`      <s:element name="${operation}Response">`);
    add('        <s:complexType>');
    add('          <s:sequence>');
    add(`            <s:element minOccurs="0" maxOccurs="1" name="${operation}Result" type="${resultType(operation)}" />`);
    add('          </s:sequence>');
    add('        </s:complexType>');
    add('      </s:element>');
    if (operation === 'GetRenderingQualityList') {
      add('      <s:complexType name="ArrayOfRendering">');
      add('        <s:sequence>');
      add('          <s:element minOccurs="0" maxOccurs="unbounded" name="Rendering" nillable="true" type="tns:Rendering" />');
      add('        </s:sequence>');
      add('      </s:complexType>');
      add('      <s:complexType name="Rendering">');
      add('        <s:sequence>');
      add('          <s:element minOccurs="1" maxOccurs="1" name="RenderingQualityid" type="s:int" />');
      add('          <s:element minOccurs="0" maxOccurs="1" name="RenderingQualityname" type="s:string" />');
      add('          <s:element minOccurs="0" maxOccurs="1" name="Error" type="s:string" />');
      add('        </s:sequence>');
      add('      </s:complexType>');
    }
  }
  add('      <s:element name="string" nillable="true" type="s:string" />');
  add('      <s:element name="ArrayOfRendering" nillable="true" type="tns:ArrayOfRendering" />');
  add('    </s:schema>');
  add('  </wsdl:types>');

  for (const operation of OPERATION_NAMES) {
    add(`  <wsdl:message name="${operation}SoapIn">`);
    add(`    <wsdl:part name="parameters" element="tns:${operation}" />`);
    add('  </wsdl:message>');
    add(`  <wsdl:message name="${operation}SoapOut">`);
    add(`    <wsdl:part name="parameters" element="tns:${operation}Response" />`);
    add('  </wsdl:message>');
  }
  for (const verb of ['HttpGet', 'HttpPost']) {
    for (const operation of OPERATION_NAMES) {
      add(`  <wsdl:message name="${operation}${verb}In">`);
      for (const param of OPERATION_PARAMS[operation]) add(`    <wsdl:part name="${param}" type="s:string" />`);
      add('  </wsdl:message>');
      add(`  <wsdl:message name="${operation}${verb}Out">`);
      add(`    <wsdl:part name="Body" element="tns:${operation === 'GetRenderingQualityList' ? 'ArrayOfRendering' : 'string'}" />`);
      add('  </wsdl:message>');
    }
  }

  for (const suffix of ['Soap', 'HttpGet', 'HttpPost']) {
    add(`  <wsdl:portType name="${SERVICE_NAME}${suffix}">`);
    for (const operation of OPERATION_NAMES) {
      add(`    <wsdl:operation name="${operation}">`);
      add(`      <wsdl:documentation xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/">${escapeText(DOCS[operation])}</wsdl:documentation>`);
      add(`      <wsdl:input message="tns:${operation}${suffix}In" />`);
      add(`      <wsdl:output message="tns:${operation}${suffix}Out" />`);
      add('    </wsdl:operation>');
    }
    add('  </wsdl:portType>');
  }

  for (const [name, prefix] of [[`${SERVICE_NAME}Soap`, 'soap'], [`${SERVICE_NAME}Soap12`, 'soap12']] as const) {
    add(`  <wsdl:binding name="${name}" type="tns:${SERVICE_NAME}Soap">`);
    add(`    <${prefix}:binding transport="http://schemas.xmlsoap.org/soap/http" />`);
    for (const operation of OPERATION_NAMES) {
      add(`    <wsdl:operation name="${operation}">`);
      add(`      <${prefix}:operation soapAction="${ns}${operation}" style="document" />`);
      add('      <wsdl:input>');
      add(`        <${prefix}:body use="literal" />`);
      add('      </wsdl:input>');
      add('      <wsdl:output>');
      add(`        <${prefix}:body use="literal" />`);
      add('      </wsdl:output>');
      add('    </wsdl:operation>');
    }
    add('  </wsdl:binding>');
  }
  for (const [suffix, verb] of [['HttpGet', 'GET'], ['HttpPost', 'POST']] as const) {
    add(`  <wsdl:binding name="${SERVICE_NAME}${suffix}" type="tns:${SERVICE_NAME}${suffix}">`);
    add(`    <http:binding verb="${verb}" />`);
    for (const operation of OPERATION_NAMES) {
      add(`    <wsdl:operation name="${operation}">`);
      add(`      <http:operation location="/${operation}" />`);
      add('      <wsdl:input>');
      add(verb === 'GET' ? '        <http:urlEncoded />' : '        <mime:content type="application/x-www-form-urlencoded" />');
      add('      </wsdl:input>');
      add('      <wsdl:output>');
      add('        <mime:mimeXml part="Body" />');
      add('      </wsdl:output>');
      add('    </wsdl:operation>');
    }
    add('  </wsdl:binding>');
  }

  add(`  <wsdl:service name="${SERVICE_NAME}">`);
  for (const [port, addressPrefix] of [['Soap', 'soap'], ['Soap12', 'soap12'], ['HttpGet', 'http'], ['HttpPost', 'http']] as const) {
    add(`    <wsdl:port name="${SERVICE_NAME}${port}" binding="tns:${SERVICE_NAME}${port}">`);
    add(`      <${addressPrefix}:address location="${loc}" />`);
    add('    </wsdl:port>');
  }
  add('  </wsdl:service>');
  add('</wsdl:definitions>');
  return lines.join('\r\n');
}

const STYLE = 'body{font-family:Verdana,sans-serif;margin:2em;color:#000}h1{font-size:1.4em;background:#003366;color:#fff;padding:.4em}pre{background:#e5e5cc;padding:.6em;overflow:auto}a{color:#336699}';

/** The service's HTML help page (like ASMX's), listing the operations. */
export function helpPage(servicePath: string): string {
  const items = OPERATION_NAMES.map((op) => `<li><a href="${escapeAttribute(servicePath)}?op=${op}">${op}</a><br>${escapeText(DOCS[op])}</li>`).join('\n');
  return `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>${SERVICE_NAME} Web Service (Sitewalk sandbox)</title><style>${STYLE}</style></head>
<body><h1>${SERVICE_NAME}</h1>
<p>The following operations are supported. For a formal definition, please review the <a href="${escapeAttribute(servicePath)}?WSDL">Service Description</a>.</p>
<ul>
${items}
</ul>
<p>This is the Sitewalk sandbox: a local stand-in for the coverage-mapping service. Its state can be inspected under <a href="/_sandbox/state">/_sandbox/</a>.</p>
</body></html>
`;
}

/** Help for one operation with sample requests per binding, like ASMX's ?op= page. */
export function operationHelpPage(servicePath: string, namespace: string, operation: OperationName, host: string): string {
  const params = OPERATION_PARAMS[operation];
  const soapParams = params.map((p) => `      <${p}>string</${p}>`).join('\n');
  const soapSample = (version: '1.1' | '1.2'): string => {
    const [prefix, envelopeNs, headers] =
      version === '1.1'
        ? ['soap', SOAP11_ENVELOPE_NS, `Content-Type: text/xml; charset=utf-8\nContent-Length: length\nSOAPAction: "${namespace}${operation}"`]
        : ['soap12', SOAP12_ENVELOPE_NS, 'Content-Type: application/soap+xml; charset=utf-8\nContent-Length: length'];
    return `POST ${servicePath} HTTP/1.1
Host: ${host}
${headers}

<?xml version="1.0" encoding="utf-8"?>
<${prefix}:Envelope xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:${prefix}="${envelopeNs}">
  <${prefix}:Body>
    <${operation} xmlns="${namespace}">
${soapParams}
    </${operation}>
  </${prefix}:Body>
</${prefix}:Envelope>`;
  };
  const get = `GET ${servicePath}/${operation}?${params.map((p) => `${p}=string`).join('&')} HTTP/1.1
Host: ${host}`;
  const post = `POST ${servicePath}/${operation} HTTP/1.1
Host: ${host}
Content-Type: application/x-www-form-urlencoded
Content-Length: length

${params.map((p) => `${p}=string`).join('&')}`;
  return `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>${SERVICE_NAME} Web Service: ${operation}</title><style>${STYLE}</style></head>
<body><h1>${SERVICE_NAME}</h1>
<p>Click <a href="${escapeAttribute(servicePath)}">here</a> for a complete list of operations.</p>
<h2>${operation}</h2>
<p>${escapeText(DOCS[operation])}</p>
<h3>SOAP 1.1</h3><pre>${escapeText(soapSample('1.1'))}</pre>
<h3>SOAP 1.2</h3><pre>${escapeText(soapSample('1.2'))}</pre>
<h3>HTTP GET</h3><pre>${escapeText(get)}</pre>
<h3>HTTP POST</h3><pre>${escapeText(post)}</pre>
</body></html>
`;
}
