// SPDX-License-Identifier: GPL-2.0
#include "junit.h"

#include <errno.h>
#include <libxml/xmlwriter.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"

/* Every string from the files is written through these two, escaped once. */
static int attribute(xmlTextWriterPtr w, const char *name, const char *value)
{
	char *safe = escape_text(value ? value : "");
	int ret = xmlTextWriterWriteAttribute(w, BAD_CAST name, BAD_CAST safe);

	free(safe);
	return ret < 0;
}

static int string(xmlTextWriterPtr w, const char *value)
{
	char *safe = escape_text(value);
	int ret = xmlTextWriterWriteString(w, BAD_CAST safe);

	free(safe);
	return ret < 0;
}

static int attribute_count(xmlTextWriterPtr w, const char *name, size_t n)
{
	return xmlTextWriterWriteFormatAttribute(w, BAD_CAST name, "%zu", n) < 0;
}

/* testsuites' and testsuite's attributes: every benchmark a test, not judged ones skipped */
static int counts(xmlTextWriterPtr w, const struct gate_result *r)
{
	return attribute(w, "name", "knotif-compare") || attribute_count(w, "tests", r->count) ||
	       attribute_count(w, "failures", r->regressions) || attribute_count(w, "errors", 0) ||
	       attribute_count(w, "skipped", r->count - r->gated);
}

/* what the row says: the verdict, the gated figure's change and U p, and the note (not escaped) */
static void summary(const struct comparison *c, char *out, size_t len)
{
	char change[64] = "", p[48] = "";

	if (c->reps_base && c->reps_new && verdict_gated(c->verdict))
		snprintf(change, sizeof(change), ": %s %.6g -> %.6g (%+.1f%%)", gb_figure_key(c->metric),
			 c->base, c->new, c->change * 100);
	if (c->have_u)
		snprintf(p, sizeof(p), ", U p %.3g", c->u.pvalue);
	snprintf(out, len, "%s%s%s%s%s", verdict_name(c->verdict), change, p, c->note[0] ? "; " : "", c->note);
}

static int property(xmlTextWriterPtr w, const char *name, const char *value)
{
	return xmlTextWriterStartElement(w, BAD_CAST "property") < 0 || attribute(w, "name", name) ||
	       attribute(w, "value", value) || xmlTextWriterEndElement(w) < 0;
}

static int testcase(xmlTextWriterPtr w, const struct comparison *c)
{
	const char *slash = strchr(c->name, '/');
	char family[128], said[512];
	int err;

	summary(c, said, sizeof(said));
	snprintf(family, sizeof(family), "%.*s", slash ? (int)(slash - c->name) : (int)strlen(c->name),
		 c->name);
	err = xmlTextWriterStartElement(w, BAD_CAST "testcase") < 0 || attribute(w, "classname", family) ||
	      attribute(w, "name", c->name);
	if (c->verdict == VERDICT_REGRESSION)
		err |= xmlTextWriterStartElement(w, BAD_CAST "failure") < 0 ||
		       attribute(w, "type", "regression") || attribute(w, "message", said) ||
		       string(w, said) || xmlTextWriterEndElement(w) < 0;
	else if (!verdict_gated(c->verdict))
		err |= xmlTextWriterStartElement(w, BAD_CAST "skipped") < 0 || attribute(w, "message", said) ||
		       xmlTextWriterEndElement(w) < 0;
	err |= xmlTextWriterStartElement(w, BAD_CAST "system-out") < 0 || string(w, said) ||
	       xmlTextWriterEndElement(w) < 0 || xmlTextWriterEndElement(w) < 0;
	return err;
}

int gate_print_junit(FILE *out, const struct gb_file *base, const struct gb_file *new,
		     const struct gate_options *o, const struct gate_result *r)
{
	xmlOutputBufferPtr buf = xmlOutputBufferCreateFile(out, NULL);
	xmlTextWriterPtr w = buf ? xmlNewTextWriter(buf) : NULL;
	char value[64];
	int err;

	if (!w) {
		if (buf)
			xmlOutputBufferClose(buf);
		return -ENOMEM;
	}
	xmlTextWriterSetIndent(w, 1);
	err = xmlTextWriterStartDocument(w, NULL, "UTF-8", NULL) < 0 ||
	      xmlTextWriterStartElement(w, BAD_CAST "testsuites") < 0 || counts(w, r) ||
	      xmlTextWriterStartElement(w, BAD_CAST "testsuite") < 0 || counts(w, r) ||
	      xmlTextWriterStartElement(w, BAD_CAST "properties") < 0 || property(w, "base", base->path) ||
	      property(w, "new", new->path) || property(w, "metric", gb_figure_key(o->metric));
	snprintf(value, sizeof(value), "%+.1f%%", o->threshold * 100);
	err |= property(w, "threshold", value);
	snprintf(value, sizeof(value), "%g", o->alpha);
	err |= property(w, "alpha", o->deterministic ? "none (deterministic)" : value) ||
	       xmlTextWriterEndElement(w) < 0;
	for (size_t i = 0; i < r->count && !err; i++)
		err |= testcase(w, &r->c[i]);
	err |= xmlTextWriterEndDocument(w) < 0;	/* closes what is open */
	xmlFreeTextWriter(w);	/* flushes and closes buf, not out */
	return err || fflush(out) || ferror(out) ? -EIO : 0;
}
