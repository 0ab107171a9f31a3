import type { Configuration } from "~/lib/configuration";
import { Section, SettingInput } from "./section";

/** The dismissible info banner on the landing page. */
export function BannerSettings({ config }: { config: Configuration }) {
  return (
    <Section
      name="banner"
      title="Info-Banner"
      description="Ein schließbarer Hinweis oben auf der Startseite."
    >
      <label className="inline-flex items-center gap-2">
        <input type="checkbox" name="bannerEnabled" defaultChecked={config.infoBanner.enabled} />
        Banner anzeigen
      </label>
      <SettingInput id="bannerText" label="Text" defaultValue={config.infoBanner.text} />
    </Section>
  );
}
