import { Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { inputClass } from "~/components/ui/field";
import { useSettingsIndexEntry } from "./settings-index";

/**
 * The logo (ADRs 268, 293): its own forms beside the settings form (a file upload), without JS too.
 * PNG, JPEG or WebP up to 256 KB; it replaces the product's mark in every header.
 */
export function LogoSettings({ logoUrl, action }: { logoUrl: string | null; action: string }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formAction === action;
  useSettingsIndexEntry("branding-logo", "Logo");
  return (
    <Card id="branding-logo" className="scroll-mt-24 space-y-4 p-5">
      <div>
        <h2 className="text-lg font-semibold">Logo</h2>
        <p className="text-sm text-slate-500 dark:text-slate-400">
          Erscheint in den Kopfzeilen statt des Standardzeichens. PNG, JPEG oder WebP, höchstens 256
          KB.
        </p>
      </div>
      {logoUrl ? (
        <div className="flex items-center gap-3">
          <img
            src={logoUrl}
            alt="Aktuelles Logo"
            className="size-16 rounded border border-slate-200 object-contain dark:border-slate-700"
          />
          <Form method="post" action={action}>
            <Button type="submit" name="intent" value="logo-remove" variant="secondary" size="sm">
              Logo entfernen
            </Button>
          </Form>
        </div>
      ) : (
        <p className="text-sm">Kein eigenes Logo hinterlegt.</p>
      )}
      <Form
        method="post"
        action={action}
        encType="multipart/form-data"
        className="flex flex-wrap items-end gap-3"
      >
        <div className="min-w-0 flex-1">
          <label htmlFor="branding-logo-file" className="mb-1 block text-sm font-medium">
            Neues Logo
          </label>
          <input
            id="branding-logo-file"
            type="file"
            name="logo"
            required
            accept="image/png,image/jpeg,image/webp"
            className={inputClass}
          />
        </div>
        <Button type="submit" name="intent" value="logo-upload" disabled={busy}>
          Logo hochladen
        </Button>
      </Form>
    </Card>
  );
}
