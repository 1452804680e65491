#!/usr/bin/python3
"""Apply the Schematron rules an XML Schema embeds to XML files.

IMS publishes the Common Cartridge schemas with ISO Schematron rules in
their xs:appinfo (namespace http://purl.oclc.org/dsdl/schematron): the
rules the XSD cannot say, such as "a web link resource has at most one
file" or "a dependency never names its own resource". xmllint applies
the XSD only; this script applies the rules, with lxml's isoschematron
(Debian's python3-lxml, which runs ISO Schematron through the XSLT
skeleton it bundles).

    /usr/bin/python3 .ci/schematron.py -s A.xsd [-s B.xsd ...] FILE.xml ...

Every schema's rules are applied to every file. Each failed assert is
printed on one line, "FILE: PATTERN: TEXT (at LOCATION)", where TEXT is
the assert's own message ("[RULE 2b] For the Web Link Resource there are
too many 'file' element references: 2.") and LOCATION the XPath of the
element that broke it. Exit status: 0 when every assert holds, 1 when
one fails, 2 when a schema or a file cannot be read (a schema that
embeds no rule is refused, so a run never passes by checking nothing).

The rules are taken as IMS wrote them; only their wrapping changes, so
that an ISO Schematron processor accepts them:

- the xs:appinfo children (sch:title, sch:ns, sch:pattern) go into one
  sch:schema, in the order ISO Schematron requires (title, ns, patterns);
- a pattern's `name` attribute (Schematron 1.5, used in the CC 1.1 files;
  IMS replaced it by `id` in CC 1.3, as that file's history says) becomes
  its `id`, spaces replaced by underscores ("RULE SET 2" -> "RULE_SET_2");
- a rule with no assert or report (the LOM files keep empty placeholder
  rules for some types) is left out: it tests nothing, and ISO
  Schematron requires at least one assertion.

Rules IMS commented out (the "TEMP REMOVAL (2015-03-26)" asserts 1a, 2a,
3a and 4b of CC 1.3, the "TO BE VERIFIED"/"UNDER REVIEW" rules 5g and 6g
of both versions) are XML comments and stay out.
"""

import argparse
import re
import sys

from lxml import etree, isoschematron

XS = "http://www.w3.org/2001/XMLSchema"
SCH = "http://purl.oclc.org/dsdl/schematron"
SVRL = "http://purl.oclc.org/dsdl/svrl"

# A step of the skeleton's locations, *[local-name()='x' and
# namespace-uri()='...'], which location() shortens to x.
STEP = re.compile(r"\*\[local-name\(\)='([^']*)' and namespace-uri\(\)='[^']*'\]")


def location(xpath):
    """Return the XPath of a failed assert with its steps named plainly:
    /manifest/resources/resource[2]/dependency[1]."""
    return STEP.sub(r"\1", xpath)


def rules_of(xsd_path):
    """Return the ISO Schematron schema xsd_path embeds, as an element, and
    the number of its asserts; a ValueError when it embeds none."""
    tree = etree.parse(xsd_path)
    titles, namespaces, patterns = [], [], []
    for appinfo in tree.iter("{%s}appinfo" % XS):
        for child in appinfo:
            if not isinstance(child.tag, str) or etree.QName(child).namespace != SCH:
                continue  # a comment, or something not Schematron
            kind = etree.QName(child).localname
            if kind == "title":
                titles.append(child)
            elif kind == "ns":
                namespaces.append(child)
            elif kind == "pattern":
                patterns.append(child)
    asserts = 0
    for pattern in patterns:
        name = pattern.attrib.pop("name", None)
        if name is not None and "id" not in pattern.attrib:
            pattern.set("id", name.replace(" ", "_"))
        for rule in pattern.findall("{%s}rule" % SCH):
            n = len(rule.findall("{%s}assert" % SCH)) + len(rule.findall("{%s}report" % SCH))
            if n == 0:
                pattern.remove(rule)
            asserts += n
    if asserts == 0:
        raise ValueError("%s embeds no Schematron assert" % xsd_path)
    schema = etree.Element("{%s}schema" % SCH, nsmap={"sch": SCH})
    schema.set("queryBinding", "xslt")
    for child in titles[:1] + namespaces + [p for p in patterns if len(p.findall("{%s}rule" % SCH))]:
        schema.append(child)
    return schema, asserts


def failures(schematron, doc):
    """Yield (pattern, text, location) for each assert doc fails."""
    schematron.validate(doc)
    pattern = ""
    for node in schematron.validation_report.getroot():
        if not isinstance(node.tag, str):
            continue
        kind = etree.QName(node).localname
        if kind == "active-pattern":
            pattern = node.get("id") or node.get("name") or ""
        elif kind == "failed-assert":
            text = " ".join("".join(node.find("{%s}text" % SVRL).itertext()).split())
            yield pattern, text, location(node.get("location", ""))


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-s", "--schema", action="append", required=True,
                        help="an XSD whose embedded Schematron rules apply (repeatable)")
    parser.add_argument("files", nargs="+", help="the XML files to check")
    args = parser.parse_args(argv)
    validators = []
    try:
        for path in args.schema:
            schema, asserts = rules_of(path)
            validators.append((path, isoschematron.Schematron(schema, store_report=True), asserts))
    except (OSError, ValueError, etree.LxmlError) as err:
        print("schematron: %s" % err, file=sys.stderr)
        return 2
    failed = 0
    for path in args.files:
        try:
            doc = etree.parse(path)
        except (OSError, etree.LxmlError) as err:
            print("schematron: %s" % err, file=sys.stderr)
            return 2
        for _, validator, _ in validators:
            for pattern, text, location in failures(validator, doc):
                print("%s: %s: %s (at %s)" % (path, pattern, text, location))
                failed += 1
    total = sum(n for _, _, n in validators)
    print("schematron: %d file(s), %d assert(s) from %d schema(s), %d failed"
          % (len(args.files), total, len(validators), failed), file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
